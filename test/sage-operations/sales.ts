/**
 * Sales documents as Sage clients write them (pm-040..046, 163..199; hp-001..004; s1-011..029): a quote for a lead
 * and one for the customer of parties.ts, converted quote → order → delivery note → invoice (pending quantities
 * followed at each step), an invoice as HP sends it closed, posted and settled in two payments, a credit note, a
 * link between documents, and the reads those clients make. Amounts are chosen to be exact at any rounding level,
 * so the totals below are hand-computed to the cent (IVA 21 % on every line: no product names a tax group).
 */
import { assert, nodesOf, onlyNode, deletion, type Context, type SageOperation } from './operation.ts';

const num = (value: unknown) => Number(value);
/** The document dates, in the current year so that posting finds its exercise open. */
const day = (ctx: Context, d: string) => `${ctx.year}-05-${d}`;

const ADDRESS = 'city countryId countryName firstLine province secondLine zipCode';
const DOCUMENT_FIELDS = `id customerId documentDate operationalNumber socialName status creationDate salesDiscountGroupId salesTariffId
  totalGross totalDiscount totalLiquid totalNet totalVat discount customer { id code vatNumber tradeName salesDiscountGroupId }
  deliveryAddress { ${ADDRESS} } mainAddress { ${ADDRESS} name }`;
const LINE_FIELDS = 'id productId productCode productName totalQuantity unitPrice firstDiscount totalNet vatPercentage product { id salesUnitPrice }';
const QUOTE_BY_ID = `query salesQuoteById($id: UUID!) { salesQuotes(where: { id: { eq: $id } }) { edges { node {
  ${DOCUMENT_FIELDS} declinedReason vatNumber contactName contactPhone contactEmail lines { ${LINE_FIELDS} pendingQuantity status }
} } } }`;
const ORDER_BY_ID = `query salesOrderById($id: UUID!) { salesOrders(where: { id: { eq: $id } }) { edges { node { ${DOCUMENT_FIELDS} lines { ${LINE_FIELDS} pendingQuantity status } } } } }`;
const INVOICE_FRAGMENT = `fragment SalesInvoiceFields on SalesInvoice {
  ${DOCUMENT_FIELDS} type hasCreditNote firstDueDate salesOrderNumber
  sourceSalesInvoice { id type operationalNumber documentDate status salesOrderNumber }
  openItems { id status amount dueDate paidAmountAccumulated paymentMean { description } }
  lines { ${LINE_FIELDS} availableForCreditNoteQuantity }
}`;
const INVOICE_BY_ID = `query salesInvoiceById($id: UUID) { salesInvoices(where: { id: { eq: $id } }) { edges { node { ...SalesInvoiceFields } } } } ${INVOICE_FRAGMENT}`;
const OPEN_ITEMS = `query salesInvoiceOpenItems($id: UUID!) { salesInvoiceOpenItems(where: { salesInvoice: { id: { eq: $id } } }, order: [{ dueDate: ASC }]) { edges { node {
  id status amount dueDate paidAmountAccumulated paymentMean { description } salesInvoice { documentDate operationalNumber status totalLiquid firstDueDate customer { id code socialName } }
} } } }`;
const ENTRY_BY_ID = `query accountingEntries($id: UUID!) { accountingEntries(where: { id: { eq: $id } }) { edges { node { id number date journalType { code type }
  accountingEntryLines { id debitAmount creditAmount subAccount { code } accountingEntryThirdParty { code } accountingEntryPayment { matchingLetter } }
} } } }`;

/** Sage's filter of the receivable lines whose invoice still has an open item (pm-037, 038). */
const OPEN_RECEIVABLE_LINES = `query accountingEntryLines { accountingEntryLines(where: { accountingEntryInvoice: { openItems: { some: { status: { in: [NOT_SPECIFIED, PARTIAL] } } } } }) {
  totalCount edges { node { accountingEntryId debitAmount subAccount { code } } }
} }`;
/** [productCode, quantity, unitPrice, firstDiscount, totalNet] of each line, as numbers. */
const lineFigures = (lines: any[]) => lines.map((l) => [l.productCode, num(l.totalQuantity), num(l.unitPrice), num(l.firstDiscount ?? 0), num(l.totalNet)]);
/** [gross, discount, net, vat, liquid] of a document. */
const totals = (d: any) => [num(d.totalGross), num(d.totalDiscount), num(d.totalNet), num(d.totalVat), num(d.totalLiquid)];
const createDocument = (resource: string, idKey: string, values: (ctx: Context) => object, check: (data: any, ctx: Context) => void = () => {}): SageOperation => ({
  name: `create${resource}`,
  query: `mutation create${resource}($values: ${resource}CreateGLDtoInput!) { create${resource}(input: $values) { id operationalNumber } }`,
  variables: (ctx) => ({ values: values(ctx) }),
  expect(data, ctx) {
    ctx[idKey] = data[`create${resource}`].id;
    check(data[`create${resource}`], ctx);
  },
});
const updateDocument = (resource: string, idKey: string, values: (ctx: Context) => object): Omit<SageOperation, 'name'> => ({
  query: `mutation update${resource}($values: ${resource}UpdateGLDtoInput!) { update${resource}(input: $values) { id } }`,
  variables: (ctx) => ({ values: { id: ctx[idKey], ...values(ctx) } }),
  expect(data, ctx) { assert.equal(data[`update${resource}`].id, ctx[idKey]); },
});
const converted = (originType: string, originKey: string, lineKey: string, rest: object) => (ctx: Context) => ({ originType, originId: ctx[originKey], originLineId: ctx[lineKey], ...rest });

/** A mutation that books an entry (post, settlement): answers {accountingEntryId accountingEntryNumber} (§1.8), the id kept under `entryKey`. */
const booking = (mutation: string, inputType: string, entryKey: string, values: (ctx: Context) => object): Omit<SageOperation, 'name'> => ({
  query: `mutation ${mutation}($values: ${inputType}!) { ${mutation}(input: $values) { accountingEntryId accountingEntryNumber } }`,
  variables: (ctx) => ({ values: values(ctx) }),
  expect(data, ctx) {
    assert.ok(data[mutation].accountingEntryNumber > 0, 'a numbered entry');
    ctx[entryKey] = data[mutation].accountingEntryId;
  },
});

export const SALES: SageOperation[] = [
  {
    name: 'createProduct ×2 for the sales documents (pm-126): 20.00 and 19.00, no tax group (IVA 21 %)',
    query: `mutation createProducts($a: ProductCreateGLDtoInput!, $b: ProductCreateGLDtoInput!) { a: createProduct(input: $a) { id } b: createProduct(input: $b) { id } }`,
    variables: () => ({ a: { code: 'TORN-INOX', name: 'Tornillo inox', salesUnitPrice: 20, taxGroupId: null }, b: { code: 'ARAND-10', name: 'Arandela 10', salesUnitPrice: 19, taxGroupId: null } }),
    expect(data, ctx) { ctx.salesProductA = data.a.id; ctx.salesProductB = data.b.id; },
  },
  // ---- Quotes ----
  {
    ...createDocument('SalesQuote', 'leadQuoteId', (ctx) => ({
      documentDate: day(ctx, '04'), socialName: 'Bar La Esquina', contactName: 'Lucía Gómez', contactPhone: '+34600111222', contactEmail: 'lucia@esquina.example',
      mainAddress: [{ firstLine: 'Calle Real 5', secondLine: 'Local 2', zipCode: '41001', city: 'Sevilla', countryIsoCodeAlpha2: 'ES' }],
      lines: [{ productId: ctx.salesProductA, productName: 'Tornillo inox A2', totalQuantity: 3, unitPrice: 20 }],
    }), (created) => assert.match(created.operationalNumber, /\d/, 'a quote is numbered at creation')),
    name: 'createSalesQuote for a lead: no customerId, socialName, contact fields, mainAddress as a 1-element array (pm-163, 167; s1-011)',
  },
  {
    name: 'the lead quote read by id: no customer, the contact and the address as an object (pm-164)',
    query: QUOTE_BY_ID,
    variables: (ctx) => ({ id: ctx.leadQuoteId }),
    expect(data) {
      const quote = onlyNode(data.salesQuotes);
      assert.deepEqual([quote.customerId, quote.customer, quote.socialName, quote.contactName, quote.contactPhone, quote.contactEmail, quote.status], [null, null, 'Bar La Esquina', 'Lucía Gómez', '+34600111222', 'lucia@esquina.example', 'Pending']);
      assert.deepEqual([quote.mainAddress.firstLine, quote.mainAddress.secondLine, quote.mainAddress.city, quote.mainAddress.zipCode], ['Calle Real 5', 'Local 2', 'Sevilla', '41001']);
      assert.deepEqual(lineFigures(quote.lines), [['TORN-INOX', 3, 20, 0, 60]]);
      assert.equal(quote.lines[0].productName, 'Tornillo inox A2', 'the name sent wins over the product\'s');
      assert.deepEqual(totals(quote), [60, 0, 60, 12.6, 72.6]);
    },
  },
  {
    name: 'updateSalesQuote: updateDocumentStatus DECLINE with declinedReason (S1 06, 10)',
    ...updateDocument('SalesQuote', 'leadQuoteId', () => ({ updateDocumentStatus: 'DECLINE', declinedReason: 'Precio alto' })),
  },
  {
    name: 'the declined quote reads Declined, its reason, its lines Declined',
    query: QUOTE_BY_ID,
    variables: (ctx) => ({ id: ctx.leadQuoteId }),
    expect(data) {
      const quote = onlyNode(data.salesQuotes);
      assert.deepEqual([quote.status, quote.declinedReason, quote.lines[0].status], ['Declined', 'Precio alto', 'Declined']);
    },
  },
  {
    name: 'updateSalesQuote: updateDocumentStatus CANCEL_DECLINE makes it Pending again, so it can be deleted (S1 10)',
    ...updateDocument('SalesQuote', 'leadQuoteId', () => ({ updateDocumentStatus: 'CANCEL_DECLINE' })),
  },
  ...deletion('SalesQuote', 'salesQuotes', 'leadQuoteId', 'pm-166'),
  createDocument('SalesQuote', 'quoteId', (ctx) => ({
    customerId: ctx.customerId, documentDate: day(ctx, '05'),
    lines: [
      { productId: ctx.salesProductA, totalQuantity: 8, unitPrice: 20, firstDiscount: 10 },
      { productCode: 'ARAND-10', productName: 'Arandela 10 mm', totalQuantity: 4, unitPrice: 19 },
    ],
  })),
  {
    name: 'the quote read by id: the code-only line found its product; 160 − 10 % = 144 + 76 = 220, IVA 46.20, 266.20',
    query: QUOTE_BY_ID,
    variables: (ctx) => ({ id: ctx.quoteId }),
    expect(data, ctx) {
      const quote = onlyNode(data.salesQuotes);
      assert.deepEqual([quote.customerId, quote.customer.code, quote.status], [ctx.customerId, ctx.customerCode, 'Pending']);
      assert.deepEqual(lineFigures(quote.lines), [['TORN-INOX', 8, 20, 10, 144], ['ARAND-10', 4, 19, 0, 76]]);
      assert.equal(quote.lines[1].productId, ctx.salesProductB);
      assert.deepEqual(quote.lines.map((l: any) => [num(l.vatPercentage), num(l.pendingQuantity), l.status]), [[21, 8, 'Pending'], [21, 4, 'Pending']]);
      assert.deepEqual(totals(quote), [236, 16, 220, 46.2, 266.2]);
      ctx.quoteLineA = quote.lines[0].id;
      ctx.quoteLineB = quote.lines[1].id;
    },
  },
  {
    name: 'updateSalesQuote: a line MODIFY by id, one CREATE (pm-165, §1.9)',
    ...updateDocument('SalesQuote', 'quoteId', (ctx) => ({ lines: [
      { id: ctx.quoteLineB, requestedAction: 'MODIFY', totalQuantity: 6 },
      { requestedAction: 'CREATE', productId: ctx.salesProductA, totalQuantity: 2, unitPrice: 20 },
    ] })),
  },
  {
    name: 'the quote: B now 6 (114), a third line of 2 A (40); net 298, IVA 62.58',
    query: QUOTE_BY_ID,
    variables: (ctx) => ({ id: ctx.quoteId }),
    expect(data, ctx) {
      const quote = onlyNode(data.salesQuotes);
      assert.deepEqual(lineFigures(quote.lines), [['TORN-INOX', 8, 20, 10, 144], ['ARAND-10', 6, 19, 0, 114], ['TORN-INOX', 2, 20, 0, 40]]);
      assert.equal(quote.lines[1].id, ctx.quoteLineB, 'modified in place');
      assert.deepEqual(totals(quote), [314, 16, 298, 62.58, 360.58]);
      ctx.quoteLineExtra = quote.lines[2].id;
    },
  },
  {
    name: 'updateSalesQuote: the added line DELETE by id (pm-165)',
    ...updateDocument('SalesQuote', 'quoteId', (ctx) => ({ lines: [{ id: ctx.quoteLineExtra, requestedAction: 'DELETE' }] })),
  },
  {
    name: 'the quote: two lines left, net 258, IVA 54.18, 312.18',
    query: QUOTE_BY_ID,
    variables: (ctx) => ({ id: ctx.quoteId }),
    expect(data) {
      const quote = onlyNode(data.salesQuotes);
      assert.deepEqual(lineFigures(quote.lines), [['TORN-INOX', 8, 20, 10, 144], ['ARAND-10', 6, 19, 0, 114]]);
      assert.deepEqual(totals(quote), [274, 16, 258, 54.18, 312.18]);
    },
  },
  // ---- Quote → order → delivery note → invoice (s1-023..025) ----
  createDocument('SalesOrder', 'orderId', (ctx) => ({
    customerId: ctx.customerId, documentDate: day(ctx, '06'),
    lines: [
      converted('QUOTE', 'quoteId', 'quoteLineA', { productId: ctx.salesProductA, totalQuantity: 5, unitPrice: 20, firstDiscount: 10 })(ctx),
      converted('QUOTE', 'quoteId', 'quoteLineB', { productId: ctx.salesProductB, totalQuantity: 6, unitPrice: 19 })(ctx),
    ],
  }), (created) => assert.ok(created.operationalNumber, 'an order is numbered at creation')),
  {
    name: 'salesQuotes filtered by customer.code, with lines{pendingQuantity status}: 3 of A pending, B taken (pm-040, 041)',
    query: `query salesQuotes($code: String!) { salesQuotes(where: { customer: { code: { eq: $code } } }, order: [{ documentDate: DESC }], first: 10) { totalCount edges { node { id status lines { productCode pendingQuantity status } } } } }`,
    variables: (ctx) => ({ code: ctx.customerCode }),
    expect(data, ctx) {
      const quote = onlyNode(data.salesQuotes);
      assert.equal(quote.id, ctx.quoteId);
      assert.equal(quote.status, 'Pending');
      assert.deepEqual(quote.lines.map((l: any) => [l.productCode, num(l.pendingQuantity), l.status]), [['TORN-INOX', 3, 'Partial'], ['ARAND-10', 0, 'Completed']]);
    },
  },
  {
    name: 'the order read by id: its lines name their origin quote lines',
    query: `query salesOrderLines($id: UUID!) { salesOrders(where: { id: { eq: $id } }) { edges { node { id status lines { id originType originId originLineId totalNet pendingQuantity status } } } } }`,
    variables: (ctx) => ({ id: ctx.orderId }),
    expect(data, ctx) {
      const order = onlyNode(data.salesOrders);
      assert.deepEqual(order.lines.map((l: any) => [l.originType, l.originId, l.originLineId, num(l.totalNet), num(l.pendingQuantity), l.status]), [
        ['QUOTE', ctx.quoteId, ctx.quoteLineA, 90, 5, 'Pending'], ['QUOTE', ctx.quoteId, ctx.quoteLineB, 114, 6, 'Pending'],
      ]);
      ctx.orderLineA = order.lines[0].id;
      ctx.orderLineB = order.lines[1].id;
    },
  },
  {
    name: 'updateSalesOrder: a converted line {id, totalQuantity} with no action modifies it (pm-175, §1.9)',
    ...updateDocument('SalesOrder', 'orderId', (ctx) => ({ lines: [{ id: ctx.orderLineA, totalQuantity: 4 }] })),
  },
  {
    name: 'the quote gives back what the order no longer takes: 4 of A pending',
    query: QUOTE_BY_ID,
    variables: (ctx) => ({ id: ctx.quoteId }),
    expect(data) { assert.deepEqual(onlyNode(data.salesQuotes).lines.map((l: any) => [num(l.pendingQuantity), l.status]), [[4, 'Partial'], [0, 'Completed']]); },
  },
  createDocument('SalesDeliveryNote', 'deliveryNoteId', (ctx) => ({
    customerId: ctx.customerId, documentDate: day(ctx, '07'),
    lines: [
      converted('ORDER', 'orderId', 'orderLineA', { productId: ctx.salesProductA, totalQuantity: 4, unitPrice: 20, firstDiscount: 10 })(ctx),
      converted('ORDER', 'orderId', 'orderLineB', { productId: ctx.salesProductB, totalQuantity: 6, unitPrice: 19 })(ctx),
    ],
  })),
  {
    name: 'the order, all of it delivered: lines Completed with nothing pending, the order Closed',
    query: ORDER_BY_ID,
    variables: (ctx) => ({ id: ctx.orderId }),
    expect(data) {
      const order = onlyNode(data.salesOrders);
      assert.deepEqual(order.lines.map((l: any) => [num(l.pendingQuantity), l.status]), [[0, 'Completed'], [0, 'Completed']]);
      assert.equal(order.status, 'Closed');
      assert.deepEqual(totals(order), [194, 8, 186, 39.06, 225.06]);
    },
  },
  {
    name: 'updateSalesDeliveryNote: remarks and comments (pm-181)',
    ...updateDocument('SalesDeliveryNote', 'deliveryNoteId', () => ({ remarks: 'Entregar por la mañana', comments: 'Muelle 2' })),
  },
  {
    name: 'the delivery note read by id: the patch applied, its lines from the order',
    query: `query salesDeliveryNotes($id: UUID!) { salesDeliveryNotes(where: { id: { eq: $id } }) { edges { node { id status remarks comments operationalNumber totalLiquid lines { id originType originId originLineId } } } } }`,
    variables: (ctx) => ({ id: ctx.deliveryNoteId }),
    expect(data, ctx) {
      const note = onlyNode(data.salesDeliveryNotes);
      assert.deepEqual([note.status, note.remarks, note.comments, num(note.totalLiquid)], ['Pending', 'Entregar por la mañana', 'Muelle 2', 225.06]);
      assert.deepEqual(note.lines.map((l: any) => [l.originType, l.originId, l.originLineId]), [['ORDER', ctx.orderId, ctx.orderLineA], ['ORDER', ctx.orderId, ctx.orderLineB]]);
      ctx.deliveryLineA = note.lines[0].id;
      ctx.deliveryLineB = note.lines[1].id;
    },
  },
  createDocument('SalesInvoice', 'convertedInvoiceId', (ctx) => ({
    customerId: ctx.customerId, documentDate: day(ctx, '08'),
    lines: [
      converted('DELIVERY_NOTE', 'deliveryNoteId', 'deliveryLineA', { productId: ctx.salesProductA, totalQuantity: 4, unitPrice: 20, firstDiscount: 10 })(ctx),
      converted('DELIVERY_NOTE', 'deliveryNoteId', 'deliveryLineB', { productId: ctx.salesProductB, totalQuantity: 6, unitPrice: 19 })(ctx),
    ],
  }), (created) => assert.equal(created.operationalNumber, null, 'an invoice has no number until closed')),
  {
    name: 'the converted invoice through a SalesInvoice fragment: Pending, no number, 72 + 114 = 186, IVA 39.06, 225.06 (hp-003)',
    query: INVOICE_BY_ID,
    variables: (ctx) => ({ id: ctx.convertedInvoiceId }),
    expect(data, ctx) {
      const invoice = onlyNode(data.salesInvoices);
      assert.deepEqual([invoice.type, invoice.status, invoice.operationalNumber, invoice.hasCreditNote, invoice.customer.code], ['NORMAL', 'Pending', null, false, ctx.customerCode]);
      assert.deepEqual(lineFigures(invoice.lines), [['TORN-INOX', 4, 20, 10, 72], ['ARAND-10', 6, 19, 0, 114]]);
      assert.deepEqual(totals(invoice), [194, 8, 186, 39.06, 225.06]);
    },
  },
  {
    // A delivery note's lines have no status or pending quantity in Sage (S1 10): used once, they are taken.
    name: 'the delivery note used by the invoice is Closed',
    query: `query salesDeliveryNotes($id: UUID!) { salesDeliveryNotes(where: { id: { eq: $id } }) { edges { node { status } } } }`,
    variables: (ctx) => ({ id: ctx.deliveryNoteId }),
    expect(data) { assert.equal(onlyNode(data.salesDeliveryNotes).status, 'Closed'); },
  },
  // ---- Spare documents: link, delete ----
  createDocument('SalesOrder', 'spareOrderId', (ctx) => ({ customerId: ctx.customerId, documentDate: day(ctx, '09'), lines: [{ productId: ctx.salesProductB, totalQuantity: 1, unitPrice: 19 }] })),
  {
    name: 'linkRelatedSalesDocument {documentId, originId}: the spare order linked to the quote (s1-029)',
    query: `mutation linkRelatedSalesDocument($values: LinkRelatedSalesDocumentGLDtoInput!) { linkRelatedSalesDocument(input: $values) { documentId documentType originId originDocumentType } }`,
    variables: (ctx) => ({ values: { documentId: ctx.spareOrderId, originId: ctx.quoteId } }),
    expect(data, ctx) { assert.deepEqual(data.linkRelatedSalesDocument, { documentId: ctx.spareOrderId, documentType: 'ORDER', originId: ctx.quoteId, originDocumentType: 'QUOTE' }); },
  },
  {
    name: 'relatedSalesDocuments filtered by originId: both orders of the quote (s1-027)',
    query: `query relatedSalesDocuments($originId: UUID!) { relatedSalesDocuments(where: { originId: { eq: $originId } }, order: [{ documentDate: ASC }]) { totalCount edges { node { id documentId documentType operationalNumber documentDate status totalLiquid originId originDocumentType } } } }`,
    variables: (ctx) => ({ originId: ctx.quoteId }),
    expect(data, ctx) {
      assert.deepEqual(nodesOf(data.relatedSalesDocuments).map((r) => [r.documentId, r.documentType, r.originDocumentType, num(r.totalLiquid)]), [
        [ctx.orderId, 'ORDER', 'QUOTE', 225.06], [ctx.spareOrderId, 'ORDER', 'QUOTE', 22.99],
      ]);
    },
  },
  ...deletion('SalesOrder', 'salesOrders', 'spareOrderId', 'pm-176'),
  createDocument('SalesDeliveryNote', 'spareDeliveryNoteId', (ctx) => ({ customerId: ctx.customerId, documentDate: day(ctx, '09'), lines: [{ productId: ctx.salesProductB, totalQuantity: 1 }] })),
  ...deletion('SalesDeliveryNote', 'salesDeliveryNotes', 'spareDeliveryNoteId', 'pm-182'),
  createDocument('SalesInvoice', 'spareInvoiceId', (ctx) => ({ customerId: ctx.customerId, documentDate: day(ctx, '09'), lines: [{ productId: ctx.salesProductB, totalQuantity: 1 }] })),
  ...deletion('SalesInvoice', 'salesInvoices', 'spareInvoiceId', 'pm-188'),
  {
    name: 'updateSalesQuote: updateDocumentStatus CLOSE closes the quote by hand (S1 06)',
    ...updateDocument('SalesQuote', 'quoteId', () => ({ updateDocumentStatus: 'CLOSE' })),
  },
  {
    name: 'salesQuotes filtered by status {eq:"Closed"} and lines some productCode (pm-041, 042)',
    query: `query salesQuotes { salesQuotes(where: { status: { eq: "Closed" }, lines: { some: { productCode: { eq: "ARAND-10" }, unitPrice: { eq: 19 } } } }) { totalCount edges { node { id operationalNumber status lines { productCode pendingQuantity status } } } } }`,
    expect(data, ctx) {
      const quote = onlyNode(data.salesQuotes);
      assert.deepEqual([quote.id, quote.status], [ctx.quoteId, 'Closed']);
    },
  },
  {
    name: 'salesQuoteLines filtered and ordered through salesQuote.documentDate (pm-043)',
    query: `query salesQuoteLines($from: DateTime!) { salesQuoteLines(where: { salesQuote: { documentDate: { gte: $from } } }, order: [{ salesQuote: { documentDate: ASC } }, { order: ASC }]) { totalCount edges { node {
      salesQuote { socialName vatNumber operationalNumber creationDate documentDate status customer { code tradeName } } productCode productName totalQuantity unitPrice firstDiscount totalNet product { salesUnitPrice }
    } } } }`,
    variables: (ctx) => ({ from: day(ctx, '01') }),
    expect(data, ctx) {
      const lines = nodesOf(data.salesQuoteLines);
      assert.deepEqual(lines.map((l) => [l.productCode, num(l.totalQuantity), num(l.totalNet), l.salesQuote.customer.code, l.salesQuote.status, num(l.product.salesUnitPrice)]), [
        ['TORN-INOX', 8, 144, ctx.customerCode, 'Closed', 20], ['ARAND-10', 6, 114, ctx.customerCode, 'Closed', 19],
      ]);
    },
  },
  // ---- The invoice as HP sends it: closed, posted, settled ----
  {
    name: 'createPaymentMean for the invoice\'s payment terms (pm-118)',
    query: `mutation createPaymentMean($values: PaymentMeanCreateGLDtoInput!) { createPaymentMean(input: $values) { id } }`,
    variables: () => ({ values: { description: 'Transf. 30/60' } }),
    expect(data, ctx) { ctx.salesPaymentMeanId = data.createPaymentMean.id; },
  },
  createDocument('SalesInvoice', 'invoiceId', (ctx) => ({
    // Dated before the converted invoice (closed after it: invoices are numbered in date order).
    customerId: ctx.customerId, documentDate: day(ctx, '07'), salesOrderNumber: '', canGeneratePaymentLink: false, invoiceEmail: 'facturas@ferreteria.example',
    paymentTermLines: [
      { paymentMeanId: ctx.salesPaymentMeanId, type: 'FIXED_AMOUNT', value: 100, condition: 'DAY_OF_PAYMENT', day: 30 },
      { paymentMeanId: ctx.salesPaymentMeanId, type: 'REMAINING_AMOUNT', value: 0, condition: 'DAY_OF_PAYMENT', day: 60 },
    ],
    lines: [
      { productCode: 'INST-01', productName: 'Instalación', totalQuantity: 1, unitPrice: 50 },
      { productCode: 'TORN-INOX', productName: 'Tornillo inox', totalQuantity: 4, unitPrice: 20, firstDiscount: 10 },
    ],
  })),
  {
    name: 'the HP invoice\'s lines read by id, to update one',
    query: `query salesInvoiceLines($id: UUID) { salesInvoices(where: { id: { eq: $id } }) { edges { node { lines { id productCode } } } } }`,
    variables: (ctx) => ({ id: ctx.invoiceId }),
    expect(data, ctx) { ctx.invoiceFreeLine = onlyNode(data.salesInvoices).lines.find((l: any) => l.productCode === 'INST-01').id; },
  },
  {
    name: 'updateSalesInvoice: salesOrderNumber, externalReference, a line {id, totalQuantity} with no action (pm-187)',
    ...updateDocument('SalesInvoice', 'invoiceId', (ctx) => ({ salesOrderNumber: 'PED-0042', externalReference: 'EXT-0042', lines: [{ id: ctx.invoiceFreeLine, totalQuantity: 2 }] })),
  },
  {
    name: 'the HP invoice through the SalesInvoice fragment: a free line, the coded one its product; 100 + 72 = 172, IVA 36.12, 208.12 (hp-002..004)',
    query: INVOICE_BY_ID,
    variables: (ctx) => ({ id: ctx.invoiceId }),
    expect(data, ctx) {
      const invoice = onlyNode(data.salesInvoices);
      assert.deepEqual([invoice.status, invoice.operationalNumber, invoice.salesOrderNumber], ['Pending', null, 'PED-0042']);
      assert.deepEqual(lineFigures(invoice.lines), [['INST-01', 2, 50, 0, 100], ['TORN-INOX', 4, 20, 10, 72]]);
      assert.deepEqual(invoice.lines.map((l: any) => [l.productId, l.productName, num(l.vatPercentage)]), [[null, 'Instalación', 21], [ctx.salesProductA, 'Tornillo inox', 21]]);
      assert.deepEqual(totals(invoice), [180, 8, 172, 36.12, 208.12]);
      assert.deepEqual(invoice.openItems, [], 'no open items before posting');
    },
  },
  {
    name: 'closeSalesInvoice {salesInvoiceId} → {id operationalNumber} (pm-189)',
    query: `mutation closeSalesInvoice($values: CloseSalesInvoiceGLDtoInput!) { closeSalesInvoice(input: $values) { id operationalNumber } }`,
    variables: (ctx) => ({ values: { salesInvoiceId: ctx.invoiceId } }),
    expect(data, ctx) {
      assert.equal(data.closeSalesInvoice.id, ctx.invoiceId);
      assert.equal(data.closeSalesInvoice.operationalNumber, `F${ctx.year}-000001`);
      ctx.invoiceNumber = data.closeSalesInvoice.operationalNumber;
    },
  },
  {
    name: 'journalTypes of type SALES_INVOICE, where postSalesInvoice posts (S1 09)',
    query: `query journalTypes { journalTypes(where: { type: { eq: SALES_INVOICE } }, first: 5) { edges { node { id code type } } } }`,
    expect(data, ctx) { ctx.salesJournalTypeId = nodesOf(data.journalTypes)[0].id; },
  },
  {
    name: 'postSalesInvoice {salesInvoiceId, accountingEntryDescription, journalTypeId} → {accountingEntryId accountingEntryNumber} (pm-190)',
    ...booking('postSalesInvoice', 'PostSalesInvoiceGLDtoInput', 'invoiceEntryId', (ctx) => ({ salesInvoiceId: ctx.invoiceId, accountingEntryDescription: 'Factura Ferretería Centro', journalTypeId: ctx.salesJournalTypeId })),
  },
  {
    name: 'the invoice\'s entry: the customer debited 208.12, sales credited 172.00, IVA 36.12',
    query: ENTRY_BY_ID,
    variables: (ctx) => ({ id: ctx.invoiceEntryId }),
    expect(data, ctx) {
      const entry = onlyNode(data.accountingEntries);
      assert.equal(entry.journalType.type, 'SALES_INVOICE');
      const lines = entry.accountingEntryLines.map((l: any) => [l.subAccount.code.slice(0, 3), num(l.debitAmount), num(l.creditAmount), l.accountingEntryThirdParty?.code ?? null]);
      assert.deepEqual(lines, [['430', 208.12, 0, ctx.customerCode], ['700', 0, 172, null], ['477', 0, 36.12, null]]);
    },
  },
  {
    name: 'salesInvoices filtered by operationalNumber: Posted, its open items 100 + 108.12 with their payment mean (pm-045, 186)',
    query: `query salesInvoices($number: String!) { salesInvoices(where: { operationalNumber: { eq: $number } }) { edges { node { ...SalesInvoiceFields } } } } ${INVOICE_FRAGMENT}`,
    variables: (ctx) => ({ number: ctx.invoiceNumber }),
    expect(data, ctx) {
      const invoice = onlyNode(data.salesInvoices);
      assert.deepEqual([invoice.id, invoice.status], [ctx.invoiceId, 'Posted']);
      assert.deepEqual(invoice.openItems.map((o: any) => [o.status, num(o.amount), num(o.paidAmountAccumulated), o.paymentMean?.description]), [
        ['NOT_SPECIFIED', 100, 0, 'Transf. 30/60'], ['NOT_SPECIFIED', 108.12, 0, 'Transf. 30/60'],
      ]);
      assert.match(invoice.firstDueDate, new RegExp(`^${ctx.year}-06-06`), 'the first due date 30 days after the document date');
    },
  },
  {
    name: 'salesInvoiceOpenItems(where:{salesInvoice:{id:{eq}}}) (pm-191)',
    query: OPEN_ITEMS,
    variables: (ctx) => ({ id: ctx.invoiceId }),
    expect(data, ctx) {
      const items = nodesOf(data.salesInvoiceOpenItems);
      assert.deepEqual(items.map((o) => [num(o.amount), o.status, o.salesInvoice.operationalNumber, o.salesInvoice.status, o.salesInvoice.customer.code]), [
        [100, 'NOT_SPECIFIED', ctx.invoiceNumber, 'Posted', ctx.customerCode], [108.12, 'NOT_SPECIFIED', ctx.invoiceNumber, 'Posted', ctx.customerCode],
      ]);
      ctx.openItemFirst = items[0].id;
      ctx.openItemSecond = items[1].id;
    },
  },
  {
    name: 'createPaymentMethod: the bank account a settlement is paid into (ours; pm-192 names its id)',
    query: `mutation createPaymentMethod($input: PaymentMethodCreateGLDtoInput!) { createPaymentMethod(input: $input) { id } }`,
    variables: (ctx) => ({ input: { referenceName: 'Santander cobros', type: 'BANK_ACCOUNT', journalTypeId: ctx.journalTypeId, subAccountId: ctx.bankAccountId } }),
    expect(data, ctx) { ctx.salesPaymentMethodId = data.createPaymentMethod.id; },
  },
  {
    name: 'salesOpenItemSettlement: the first item in full, 8.12 of the second (pm-192)',
    ...booking('salesOpenItemSettlement', 'SalesOpenItemSettlementGLDtoInput', 'settlementEntryId', (ctx) => ({
      entryDate: `${ctx.year}-06-01`, paymentMethodId: ctx.salesPaymentMethodId, description: 'Cobro factura', documentNumber: ctx.invoiceNumber, thirdPartyId: ctx.customerId,
      salesOpenItemLinkagePaidAmounts: [{ openItemId: ctx.openItemFirst, paidAmount: 100 }, { openItemId: ctx.openItemSecond, paidAmount: 8.12 }],
    })),
  },
  {
    name: 'the open items after the first payment: COLLECTED, PARTIAL 8.12; the invoice PartiallyCollected',
    query: OPEN_ITEMS,
    variables: (ctx) => ({ id: ctx.invoiceId }),
    expect(data) {
      const items = nodesOf(data.salesInvoiceOpenItems);
      assert.deepEqual(items.map((o) => [o.status, num(o.paidAmountAccumulated)]), [['COLLECTED', 100], ['PARTIAL', 8.12]]);
      assert.equal(items[0].salesInvoice.status, 'PartiallyCollected');
    },
  },
  {
    name: 'the settlement\'s entry: bank debited 108.12, the customer credited per open item, lettered',
    query: ENTRY_BY_ID,
    variables: (ctx) => ({ id: ctx.settlementEntryId }),
    expect(data, ctx) {
      const lines = onlyNode(data.accountingEntries).accountingEntryLines;
      assert.deepEqual(lines.map((l: any) => [l.subAccount.code.slice(0, 3), num(l.debitAmount), num(l.creditAmount)]), [['572', 108.12, 0], ['430', 0, 100], ['430', 0, 8.12]]);
      const customerLine = lines.find((l: any) => l.accountingEntryThirdParty?.code === ctx.customerCode);
      assert.ok(customerLine.accountingEntryPayment.matchingLetter, 'lettered');
      ctx.matchingLetter = customerLine.accountingEntryPayment.matchingLetter;
      ctx.settlementCustomerLineId = customerLine.id;
    },
  },
  {
    name: 'accountingEntryLines filtered by accountingEntryPayment.matchingLetter (pm-035..038)',
    query: `query accountingEntryLines($letter: String!) { accountingEntryLines(where: { accountingEntryPayment: { matchingLetter: { eq: $letter } } }) { totalCount edges { node { id accountingEntryId accountingEntryPayment { matchingLetter } } } } }`,
    variables: (ctx) => ({ letter: ctx.matchingLetter }),
    expect(data, ctx) {
      const lines = nodesOf(data.accountingEntryLines);
      assert.ok(lines.some((l) => l.id === ctx.settlementCustomerLineId));
      assert.ok(lines.every((l) => l.accountingEntryPayment.matchingLetter === ctx.matchingLetter));
    },
  },
  {
    name: 'accountingEntryLines filtered by accountingEntryInvoice.externalInvoiceNumber: the invoice\'s receivable line (pm-036)',
    query: `query accountingEntryLines($number: String!) { accountingEntryLines(where: { accountingEntryInvoice: { externalInvoiceNumber: { eq: $number } } }) { totalCount edges { node {
      accountingEntryId debitAmount accountingEntryInvoice { externalInvoiceNumber finishInvoiceNumber amount }
    } } } }`,
    variables: () => ({ number: 'EXT-0042' }),
    expect(data, ctx) {
      const line = onlyNode(data.accountingEntryLines);
      assert.deepEqual([line.accountingEntryId, num(line.debitAmount), num(line.accountingEntryInvoice.amount), line.accountingEntryInvoice.finishInvoiceNumber], [ctx.invoiceEntryId, 208.12, 208.12, ctx.invoiceNumber]);
    },
  },
  {
    name: 'accountingEntryInvoice.openItems(order: amount DESC) of the posted invoice: PARTIAL 108.12 (8.12 paid), COLLECTED 100 (pm-015..038)',
    query: `query accountingEntryLines($number: String!) { accountingEntryLines(where: { accountingEntryInvoice: { externalInvoiceNumber: { eq: $number } } }) { edges { node {
      accountingEntryId accountingEntryInvoice { openItems(order: [{ amount: DESC }]) { id status amount paidAmountAccumulated dueDate paymentMean { description } } }
    } } } }`,
    variables: () => ({ number: 'EXT-0042' }),
    expect(data, ctx) {
      const line = onlyNode(data.accountingEntryLines);
      assert.equal(line.accountingEntryId, ctx.invoiceEntryId);
      assert.deepEqual(line.accountingEntryInvoice.openItems.map((o: any) => [o.id, o.status, num(o.amount), num(o.paidAmountAccumulated), o.paymentMean?.description]), [
        [ctx.openItemSecond, 'PARTIAL', 108.12, 8.12, 'Transf. 30/60'], [ctx.openItemFirst, 'COLLECTED', 100, 100, 'Transf. 30/60'],
      ]);
    },
  },
  {
    name: 'accountingEntryLines filtered through accountingEntryInvoice⇉openItems.status {in:[NOT_SPECIFIED PARTIAL]}: the receivable line of the partly collected invoice (pm-037, 038)',
    query: OPEN_RECEIVABLE_LINES,
    expect(data, ctx) {
      const lines = nodesOf(data.accountingEntryLines).filter((l) => l.accountingEntryId === ctx.invoiceEntryId);
      assert.deepEqual(lines.map((l) => [l.subAccount.code.slice(0, 3), num(l.debitAmount)]), [['430', 208.12]], 'the receivable line, with an item still open');
    },
  },
  {
    name: 'salesOpenItemSettlement: the rest of the second item (pm-192)',
    ...booking('salesOpenItemSettlement', 'SalesOpenItemSettlementGLDtoInput', 'secondSettlementEntryId', (ctx) => ({
      entryDate: `${ctx.year}-07-01`, paymentMethodId: ctx.salesPaymentMethodId, description: 'Cobro resto', documentNumber: ctx.invoiceNumber, thirdPartyId: ctx.customerId,
      salesOpenItemLinkagePaidAmounts: [{ openItemId: ctx.openItemSecond, paidAmount: 100 }],
    })),
  },
  {
    name: 'salesInvoices filtered by status {eq:"Collected"}: the invoice, both items COLLECTED (pm-193)',
    query: `query salesInvoices { salesInvoices(where: { status: { eq: "Collected" } }) { edges { node { id status openItems { status amount paidAmountAccumulated } } } } }`,
    expect(data, ctx) {
      const invoice = onlyNode(data.salesInvoices);
      assert.equal(invoice.id, ctx.invoiceId);
      assert.deepEqual(invoice.openItems.map((o: any) => [o.status, num(o.paidAmountAccumulated)]), [['COLLECTED', 100], ['COLLECTED', 108.12]]);
    },
  },
  {
    name: 'accountingEntryInvoice.openItems of the collected invoice: both COLLECTED, in due-date order (pm-015..038)',
    query: `query accountingEntryLines($number: String!) { accountingEntryLines(where: { accountingEntryInvoice: { externalInvoiceNumber: { eq: $number } } }) { edges { node {
      accountingEntryInvoice { openItems { status amount paidAmountAccumulated dueDate paymentMean { description } } }
    } } } }`,
    variables: () => ({ number: 'EXT-0042' }),
    expect(data) {
      const items = onlyNode(data.accountingEntryLines).accountingEntryInvoice.openItems;
      assert.deepEqual(items.map((o: any) => [o.status, num(o.amount), num(o.paidAmountAccumulated)]), [['COLLECTED', 100, 100], ['COLLECTED', 108.12, 108.12]]);
    },
  },
  {
    name: 'accountingEntryLines filtered through accountingEntryInvoice⇉openItems.status {in:[NOT_SPECIFIED PARTIAL]}: not the collected invoice\'s (pm-037, 038)',
    query: OPEN_RECEIVABLE_LINES,
    expect(data, ctx) { assert.ok(!nodesOf(data.accountingEntryLines).some((l) => l.accountingEntryId === ctx.invoiceEntryId), 'the collected invoice is not open'); },
  },
  // ---- Credit note ----
  {
    name: 'closeSalesInvoice of the converted invoice: the next number',
    query: `mutation closeSalesInvoice($values: CloseSalesInvoiceGLDtoInput!) { closeSalesInvoice(input: $values) { id operationalNumber } }`,
    variables: (ctx) => ({ values: { salesInvoiceId: ctx.convertedInvoiceId } }),
    expect(data, ctx) { assert.equal(data.closeSalesInvoice.operationalNumber, `F${ctx.year}-000002`); },
  },
  {
    name: 'generateCreditNote {id, lines[{productId, quantity: 2.5}]} (pm-194, s1-026)',
    query: `mutation generateCreditNote($values: GenerateCreditNoteGLDtoInput!) { generateCreditNote(input: $values) { id } }`,
    variables: (ctx) => ({ values: { id: ctx.convertedInvoiceId, lines: [{ productId: ctx.salesProductA, quantity: 2.5 }] } }),
    expect(data, ctx) { ctx.creditNoteId = data.generateCreditNote.id; },
  },
  {
    name: 'salesInvoices filtered by type CREDIT_NOTE, with sourceSalesInvoice: −2.5 × 20 − 10 % = −45, IVA −9.45 (pm-195..198)',
    query: `query salesInvoices { salesInvoices(where: { type: { eq: CREDIT_NOTE } }) { edges { node { ...SalesInvoiceFields } } } } ${INVOICE_FRAGMENT}`,
    expect(data, ctx) {
      const note = onlyNode(data.salesInvoices);
      assert.deepEqual([note.id, note.type, note.status, note.sourceSalesInvoice.id, note.sourceSalesInvoice.operationalNumber], [ctx.creditNoteId, 'CREDIT_NOTE', 'Pending', ctx.convertedInvoiceId, `F${ctx.year}-000002`]);
      assert.deepEqual(lineFigures(note.lines), [['TORN-INOX', -2.5, 20, 10, -45]]);
      assert.deepEqual(totals(note), [-50, -5, -45, -9.45, -54.45]);
    },
  },
  {
    name: 'salesInvoices filtered by hasCreditNote: the source, 1.5 of A left to credit',
    query: `query salesInvoices { salesInvoices(where: { hasCreditNote: { eq: true }, type: { eq: NORMAL } }) { edges { node { id hasCreditNote lines { productCode availableForCreditNoteQuantity } } } } }`,
    expect(data, ctx) {
      const source = onlyNode(data.salesInvoices);
      assert.equal(source.id, ctx.convertedInvoiceId);
      assert.deepEqual(source.lines.map((l: any) => [l.productCode, num(l.availableForCreditNoteQuantity)]), [['TORN-INOX', 1.5], ['ARAND-10', 6]]);
    },
  },
  {
    name: 'salesInvoiceLines filtered and ordered through salesInvoice.documentDate (s1-022)',
    query: `query salesInvoiceLines($from: DateTime!, $to: DateTime!) { salesInvoiceLines(where: { salesInvoice: { documentDate: { gte: $from, lte: $to } } }, order: [{ salesInvoice: { documentDate: ASC } }, { order: ASC }]) { totalCount edges { node {
      salesInvoice { id operationalNumber documentDate } productCode productName totalQuantity unitPrice totalNet
    } } } }`,
    variables: (ctx) => ({ from: day(ctx, '07'), to: day(ctx, '10') }),
    expect(data, ctx) {
      const lines = nodesOf(data.salesInvoiceLines);
      assert.deepEqual(lines.map((l) => [l.salesInvoice.id, l.productCode, num(l.totalNet)]), [
        [ctx.invoiceId, 'INST-01', 100], [ctx.invoiceId, 'TORN-INOX', 72], [ctx.convertedInvoiceId, 'TORN-INOX', 72], [ctx.convertedInvoiceId, 'ARAND-10', 114],
      ]);
    },
  },
  {
    name: 'relatedSalesDocuments by documentDate gte/lte with aggregate originId|DISTINCTCOUNT (s1-027, 028)',
    query: `query relatedSalesDocuments($from: DateTime!, $to: DateTime!) { relatedSalesDocuments(where: { documentDate: { gte: $from, lte: $to } }) {
      totalCount edges { node { documentId documentType originId originDocumentType } }
      aggregate(aggregateFields: ["originId|DISTINCTCOUNT"]) { groupValues { name value } aggregates { name value } }
    } }`,
    variables: (ctx) => ({ from: day(ctx, '01'), to: day(ctx, '31') }),
    expect(data, ctx) {
      const rows = nodesOf(data.relatedSalesDocuments);
      const byDocument = Object.fromEntries(rows.map((r) => [r.documentId, [r.documentType, r.originId, r.originDocumentType]]));
      assert.deepEqual(byDocument[ctx.deliveryNoteId], ['DELIVERY_NOTE', ctx.orderId, 'ORDER']);
      assert.deepEqual(byDocument[ctx.convertedInvoiceId], ['INVOICE', ctx.deliveryNoteId, 'DELIVERY_NOTE']);
      assert.deepEqual(byDocument[ctx.invoiceId], ['INVOICE', null, null]);
      const origins = new Set(rows.map((r) => r.originId).filter(Boolean));
      assert.deepEqual(data.relatedSalesDocuments.aggregate, [{ groupValues: [], aggregates: [{ name: 'originId|DISTINCTCOUNT', value: String(origins.size) }] }]);
      assert.ok(origins.size >= 3);
    },
  },
  {
    name: 'quote lines select product{salesVatPercentage}: 21, the standard IVA of a product without treatment or group (pm-041)',
    query: `query salesQuotes($id: UUID!) { salesQuotes(where: { id: { eq: $id } }) { edges { node { lines { product { id salesUnitPrice salesVatPercentage } } } } } }`,
    variables: (ctx) => ({ id: ctx.quoteId }),
    expect(data) {
      const products = onlyNode(data.salesQuotes).lines.map((l: any) => l.product);
      assert.ok(products.length > 0);
      for (const product of products) assert.equal(num(product.salesVatPercentage), 21);
    },
  },
];

/** The quote's customer in a discount group, read through the quote as pm-040 selects it. */
export const SALES_DISCOUNT_GROUP: SageOperation[] = [
  {
    name: 'createSalesDiscount for the quote customer',
    query: `mutation createSalesDiscount($values: SalesDiscountCreateGLDtoInput!) { createSalesDiscount(input: $values) { id } }`,
    variables: () => ({ values: { code: 'DTO-FERR', name: 'Ferreterías', lines: [] } }),
    expect(data, ctx) { ctx.quoteDiscountGroupId = data.createSalesDiscount.id; },
  },
  {
    name: 'updateCustomer: the discount group set',
    query: `mutation updateCustomer($values: CustomerUpdateGLDtoInput!) { updateCustomer(input: $values) { id } }`,
    variables: (ctx) => ({ values: { id: ctx.customerId, salesDiscountGroupId: ctx.quoteDiscountGroupId } }),
    expect(data, ctx) { assert.equal(data.updateCustomer.id, ctx.customerId); },
  },
  {
    name: 'the quote customer selects salesDiscountGroup{code name} (pm-040)',
    query: `query salesQuotes($id: UUID!) { salesQuotes(where: { id: { eq: $id } }) { edges { node { customer { salesDiscountGroupId salesDiscountGroup { code name } } } } } }`,
    variables: (ctx) => ({ id: ctx.quoteId }),
    expect(data, ctx) {
      const { customer } = onlyNode(data.salesQuotes);
      assert.deepEqual([customer.salesDiscountGroupId, customer.salesDiscountGroup], [ctx.quoteDiscountGroupId, { code: 'DTO-FERR', name: 'Ferreterías' }]);
    },
  },
];
