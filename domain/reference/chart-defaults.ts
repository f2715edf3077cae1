/**
 * The accounts and journals an organisation's installed chart and standard journals hold for each role Sage's
 * organisation set-up names (organizationAccountingSetupByOrgId): the chart's control accounts (customers,
 * suppliers, bank, cash, VAT), its main sales and purchase accounts and its sales accounts for intra-EU deliveries
 * and exports (the sales posting's roles, domain/taxes/posting.ts), the country's bank, cash, opening and
 * payroll journals (ES, UK and IE install none for payroll). A role the chart has no single account or journal for is left out (answered null), not guessed:
 * UK/IE and US/CA have two bank journals, the US/CA chart no VAT.
 */
import type { OrganisationCountry } from '../enums.ts';

export const ACCOUNT_ROLES = ['customers', 'suppliers', 'bank', 'cash', 'inputVat', 'outputVat', 'saleProducts', 'saleServices', 'purchaseProducts', 'intracommunity', 'foreign'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];
export const JOURNAL_ROLES = ['bank', 'cash', 'opening', 'payroll'] as const;
export type JournalRole = (typeof JOURNAL_ROLES)[number];

/** Account codes by master chart key. */
export const CHART_DEFAULT_ACCOUNTS: Readonly<Record<string, Partial<Record<AccountRole, string>>>> = {
  'ES-PGC2007': { customers: '4300000', suppliers: '4000000', bank: '5720000', cash: '5700000', inputVat: '4720000', outputVat: '4770000', saleProducts: '7000000', saleServices: '7050000', purchaseProducts: '6000000', intracommunity: '7000001', foreign: '7000002' },
  'FR-PCG': { customers: '411000', suppliers: '401000', bank: '512000', cash: '530000', inputVat: '445660', outputVat: '445710', saleProducts: '707000', saleServices: '706000', purchaseProducts: '607000', intracommunity: '707200', foreign: '707300' },
  'DE-SKR03': { customers: '1400', suppliers: '1600', bank: '1200', cash: '1000', inputVat: '1576', outputVat: '1776', saleProducts: '8400', purchaseProducts: '3400', intracommunity: '8125', foreign: '8120' },
  'UKIE-COMMON': { customers: '1100', suppliers: '2100', bank: '1200', cash: '1230', inputVat: '2201', outputVat: '2200', saleProducts: '4000', purchaseProducts: '5000', intracommunity: '4003', foreign: '4004' },
  'US-GAAP': { customers: '1200', suppliers: '2000', bank: '1010', cash: '1000', saleProducts: '4000', purchaseProducts: '5100', foreign: '4010' },
};

/** Journal type codes of the standard journals (domain/reference/journal-types.ts) by country. */
export const DEFAULT_JOURNALS: Readonly<Record<OrganisationCountry, Partial<Record<JournalRole, string>>>> = {
  ES: { bank: 'BAN', cash: 'CAJ', opening: 'APE' },
  FR: { bank: 'BQ', cash: 'CAI', opening: 'AN', payroll: 'SAL' },
  DE: { bank: 'BK', cash: 'KA', opening: 'EB', payroll: 'LG' },
  GB: { cash: 'CA', opening: 'OB' },
  IE: { cash: 'CA', opening: 'OB' },
  US: { opening: 'OB', payroll: 'PR' },
  CA: { opening: 'OB', payroll: 'PR' },
};

/**
 * Sage's annual accounts model of a chart: the Spanish chart is the PGC for small and medium-sized companies
 * (PYME), the German one DATEV's SKR 03; the others have no such model.
 */
export const ANNUAL_ACCOUNTS_MODEL: Readonly<Record<string, 'PYME' | 'DATEV_SKR03'>> = { 'ES-PGC2007': 'PYME', 'DE-SKR03': 'DATEV_SKR03' };
