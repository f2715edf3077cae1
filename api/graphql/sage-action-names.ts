/**
 * The action names Sage Active documents (shared/research/sage-names.md §2 query roots, §3 mutations, and the
 * further names of PM's action list, pm-070). userAccessPolicyCheck answers each of them, isAllowed false
 * while this service does not serve it, instead of refusing the request as it refuses names of no one's.
 */
const SALES_DOCUMENTS = ['SalesQuote', 'SalesOrder', 'SalesDeliveryNote', 'SalesInvoice'] as const;

const QUERY_ROOTS = [
  'organizations', 'userProfile', 'users', 'userAccessPolicyCheck', 'organizationAccountingSetupByOrgId', 'organizationSalesSetupByOrgId',
  'thirdPartyCodeModeSettings', 'thirdPartyIdentification', 'localizedEnumValues', 'localizedErrorMessage',
  'countries', 'zipCodes', 'documentTypes', 'businessAreas', 'jobAreas', 'paymentMeans', 'paymentTerms',
  'accountingAccounts', 'accountingPlansMasterById', 'accountingExercises', 'journalTypes', 'accountingEntries', 'accountingEntryLines',
  'taxes', 'taxTreatments', 'dimensions', 'customers', 'suppliers', 'employees', 'products', 'productPriceById',
  'salesTariffs', 'salesDiscounts', 'salesQuotes', 'salesOrders', 'salesDeliveryNotes', 'salesInvoices', 'salesQuoteLines', 'salesInvoiceLines',
  'salesInvoiceOpenItems', 'purchaseInvoiceOpenItems', 'relatedSalesDocuments', 'documentPdfPreview', 'documentPdfEmail', 'salesKpis', 'accountingKpis',
  'purchaseInvoices', 'paymentMethods', 'bankMovements', 'transactionCategories',
  'accountingTrialBalance', 'accountingThirdPartyBalance', 'accountingBalanceSheet', 'accountingProfitAndLoss', 'accountingReportPositions',
  'aggregationCatalog', 'aggregationExecute', 'listCatalog', 'listExecute', 'files', 'filesExport',
  // Roots S1 names that the operations do not use.
  'currencies', 'invoiceTypes', 'accountingEntrySessions', 'unitOfMeasurements', 'taxGroups', 'bankAccounts', 'bankingRules', 'emailTemplates',
  'operationalNumberPresetTexts', 'unitOfMeasurementSalesSetups', 'salesOrderLines', 'salesDeliveryNoteLines', 'organizationDetail',
] as const;

const MUTATIONS = [
  'createAccountingAccount', 'updateAccountingAccount', 'deleteAccountingAccount', 'createAccountingExercise',
  'createJournalType', 'updateJournalType', 'deleteJournalType', 'createAccountingEntryUsingCodes', 'createAccountingEntryUsingIds',
  'deleteAccountingEntry', 'accountingPlanMasterImport', 'createCustomer', 'createSupplier', 'updateCustomer', 'updateSupplier',
  'deleteCustomer', 'deleteSupplier', 'createEmployee', 'updateEmployee', 'createBusinessArea', 'createJobArea', 'deleteBusinessArea',
  'createPaymentMean', 'deletePaymentMean', 'createPaymentTerm', 'deletePaymentTerm', 'createProduct', 'updateProduct', 'deleteProduct',
  ...SALES_DOCUMENTS.flatMap((d) => [`create${d}`, `update${d}`, `delete${d}`]),
  'updateDocumentStatus', 'closeSalesInvoice', 'postSalesInvoice', 'generateCreditNote', 'salesOpenItemSettlement', 'purchaseOpenItemSettlement',
  'linkRelatedSalesDocument', 'createPurchaseInvoice', 'updatePurchaseInvoice', 'deletePurchaseInvoice', 'postPurchaseInvoice',
  'reconcileBankMovement', 'unReconcileBankMovement', 'uploadFileToEntity',
];

/** PM's action list (pm-070) beyond the roots and mutations: lines, promotions, and the PDF queries per sales document type. */
const PM_ACTIONS = [
  'salesPromotions', 'salesDiscountLines', 'salesTariffLines', 'purchaseInvoiceLines', 'createAccountingEntry', 'createOrganization',
  ...SALES_DOCUMENTS.flatMap((d) => [`documentPdfPreview${d}`, `documentPdfEmail${d}`]),
];

export const SAGE_ACTION_NAMES: ReadonlySet<string> = new Set([...QUERY_ROOTS, ...MUTATIONS, ...PM_ACTIONS]);
