/**
 * Countries (ISO 3166-1) and currencies (ISO 4217) reference data, plus deterministic ids for
 * reference rows so they keep the same id across projection rebuilds.
 */
import { v5 as uuidv5 } from 'uuid';
import { OrganisationCountry } from '../enums.ts';

/** Fixed UUID v5 namespace for all reference data ids. Never change it: ids are persisted. */
export const REFERENCE_NAMESPACE = '720f0804-b775-4db7-8cd8-40dcf9905dbe';

/** Deterministic UUID (v5) for a reference row, e.g. referenceId('country', 'ES'). */
export function referenceId(kind: string, key: string): string {
  return uuidv5(`${kind}:${key}`, REFERENCE_NAMESPACE);
}

export interface CountryRef {
  isoCodeAlpha2: string;
  isoCodeAlpha3: string;
  isoNumber: string;
  name: string;
  /** EU VIES VAT-number prefix ('EL' for Greece); null outside the EU */
  viesCode: string | null;
}

type CountryRow = readonly [alpha2: string, alpha3: string, isoNumber: string, name: string, eu?: 'EU'];

const COUNTRY_ROWS: readonly CountryRow[] = [
  // EU member states
  ['AT', 'AUT', '040', 'Austria', 'EU'],
  ['BE', 'BEL', '056', 'Belgium', 'EU'],
  ['BG', 'BGR', '100', 'Bulgaria', 'EU'],
  ['HR', 'HRV', '191', 'Croatia', 'EU'],
  ['CY', 'CYP', '196', 'Cyprus', 'EU'],
  ['CZ', 'CZE', '203', 'Czechia', 'EU'],
  ['DK', 'DNK', '208', 'Denmark', 'EU'],
  ['EE', 'EST', '233', 'Estonia', 'EU'],
  ['FI', 'FIN', '246', 'Finland', 'EU'],
  ['FR', 'FRA', '250', 'France', 'EU'],
  ['DE', 'DEU', '276', 'Germany', 'EU'],
  ['GR', 'GRC', '300', 'Greece', 'EU'],
  ['HU', 'HUN', '348', 'Hungary', 'EU'],
  ['IE', 'IRL', '372', 'Ireland', 'EU'],
  ['IT', 'ITA', '380', 'Italy', 'EU'],
  ['LV', 'LVA', '428', 'Latvia', 'EU'],
  ['LT', 'LTU', '440', 'Lithuania', 'EU'],
  ['LU', 'LUX', '442', 'Luxembourg', 'EU'],
  ['MT', 'MLT', '470', 'Malta', 'EU'],
  ['NL', 'NLD', '528', 'Netherlands', 'EU'],
  ['PL', 'POL', '616', 'Poland', 'EU'],
  ['PT', 'PRT', '620', 'Portugal', 'EU'],
  ['RO', 'ROU', '642', 'Romania', 'EU'],
  ['SK', 'SVK', '703', 'Slovakia', 'EU'],
  ['SI', 'SVN', '705', 'Slovenia', 'EU'],
  ['ES', 'ESP', '724', 'Spain', 'EU'],
  ['SE', 'SWE', '752', 'Sweden', 'EU'],
  // others
  ['GB', 'GBR', '826', 'United Kingdom'],
  ['US', 'USA', '840', 'United States'],
  ['CA', 'CAN', '124', 'Canada'],
  ['CH', 'CHE', '756', 'Switzerland'],
  ['NO', 'NOR', '578', 'Norway'],
  ['MX', 'MEX', '484', 'Mexico'],
  ['AU', 'AUS', '036', 'Australia'],
  ['JP', 'JPN', '392', 'Japan'],
  ['CN', 'CHN', '156', 'China'],
  ['BR', 'BRA', '076', 'Brazil'],
  ['IN', 'IND', '356', 'India'],
  ['MA', 'MAR', '504', 'Morocco'],
  ['AD', 'AND', '020', 'Andorra'],
];

/** VIES prefixes that differ from the ISO alpha-2 code */
const VIES_EXCEPTIONS: Record<string, string> = { GR: 'EL' };

export const COUNTRIES: readonly CountryRef[] = Object.freeze(
  COUNTRY_ROWS.map(([isoCodeAlpha2, isoCodeAlpha3, isoNumber, name, eu]) =>
    Object.freeze({
      isoCodeAlpha2,
      isoCodeAlpha3,
      isoNumber,
      name,
      viesCode: eu ? (VIES_EXCEPTIONS[isoCodeAlpha2] ?? isoCodeAlpha2) : null,
    }),
  ),
);

/**
 * The legislation whose accounting and tax rules apply to organisations of a country (Sage's legislationCode):
 * the country's own code for those we keep books under (OrganisationCountry), null for the others.
 */
export function legislationCodeOf(isoCodeAlpha2: string): OrganisationCountry | null {
  return (OrganisationCountry as readonly string[]).includes(isoCodeAlpha2) ? (isoCodeAlpha2 as OrganisationCountry) : null;
}

export interface CurrencyRef {
  code: string;
  description: string;
  /** ISO 4217 minor units */
  precision: number;
}

type CurrencyRow = readonly [code: string, description: string, precision: number];

const CURRENCY_ROWS: readonly CurrencyRow[] = [
  ['EUR', 'Euro', 2],
  ['GBP', 'Pound Sterling', 2],
  ['USD', 'US Dollar', 2],
  ['CAD', 'Canadian Dollar', 2],
  ['CHF', 'Swiss Franc', 2],
  ['JPY', 'Yen', 0],
  ['KWD', 'Kuwaiti Dinar', 3],
  ['BHD', 'Bahraini Dinar', 3],
  ['OMR', 'Rial Omani', 3],
  ['JOD', 'Jordanian Dinar', 3],
  ['TND', 'Tunisian Dinar', 3],
  ['NOK', 'Norwegian Krone', 2],
  ['SEK', 'Swedish Krona', 2],
  ['DKK', 'Danish Krone', 2],
  ['ISK', 'Iceland Krona', 0],
  ['PLN', 'Zloty', 2],
  ['CZK', 'Czech Koruna', 2],
  ['HUF', 'Forint', 2],
  ['RON', 'Romanian Leu', 2],
  ['MXN', 'Mexican Peso', 2],
  ['AUD', 'Australian Dollar', 2],
  ['CNY', 'Yuan Renminbi', 2],
  ['KRW', 'Won', 0],
  ['BRL', 'Brazilian Real', 2],
  ['INR', 'Indian Rupee', 2],
  ['MAD', 'Moroccan Dirham', 2],
];

export const CURRENCIES: readonly CurrencyRef[] = Object.freeze(
  CURRENCY_ROWS.map(([code, description, precision]) => Object.freeze({ code, description, precision })),
);

export const BASE_CURRENCY: Record<OrganisationCountry, string> = Object.freeze({
  ES: 'EUR',
  FR: 'EUR',
  DE: 'EUR',
  IE: 'EUR',
  GB: 'GBP',
  US: 'USD',
  CA: 'CAD',
});
