/**
 * Germany: the Bilanz of § 266 HGB and the Gewinn- und Verlustrechnung of § 275 Abs. 2 HGB (Gesamtkostenverfahren,
 * numbering after BilRUG), on DATEV SKR 03 account ranges ("0300..0499" = every account from 0300 to 0499).
 * Simplifications, stated: the positions SKR 03 does not fill in the master chart (Wertpapiere, aktive latente Steuern,
 * Erträge aus Beteiligungen, Abschreibungen auf Finanzanlagen, sonstige Steuern) are left out; Privatkonten
 * (1800..1899, Einzelunternehmen and Personengesellschaften) are shown inside the Eigenkapital; kreditorische
 * Debitoren, debitorische Kreditoren, Umsatzsteuer in debit and overdrawn banks move by sign ([D]/[C]).
 * The Saldenvorträge (9000..9099) are off-statement: they net to zero once every opening balance is posted.
 */
import type { ModelRow, StatementsSpec } from '../../reports/statement-model.ts';

const BILANZ: readonly ModelRow[] = [
  ['A0', 'AKTIVA'],
  { balance: 'DEBIT' },
  ['AA', 'A. Anlagevermögen', 'AA1 + AA2 + AA3'],
  ['AA1', 'I. Immaterielle Vermögensgegenstände', '0010..0049'],
  ['AA2', 'II. Sachanlagen', 'AA21 + AA22 + AA23'],
  ['AA21', '1. Grundstücke, grundstücksgleiche Rechte und Bauten einschließlich der Bauten auf fremden Grundstücken', '0050..0199'],
  ['AA22', '2. technische Anlagen und Maschinen', '0200..0299'],
  ['AA23', '3. andere Anlagen, Betriebs- und Geschäftsausstattung', '0300..0499'],
  ['AA3', 'III. Finanzanlagen', '0500..0599'],
  ['AB', 'B. Umlaufvermögen', 'AB1 + AB2 + AB4'],
  ['AB1', 'I. Vorräte', '3970..3989, 7000..7999'],
  ['AB2', 'II. Forderungen und sonstige Vermögensgegenstände', 'AB21 + AB24 + AB25'],
  // 0996/0997 Pauschal- and 0998/0999 Einzelwertberichtigungen correct the Forderungen: a contra on the same side.
  ['AB21', '1. Forderungen aus Lieferungen und Leistungen', '1400..1499[D], 0996..0999'],
  ['AB24', '4. sonstige Vermögensgegenstände', '1500..1599, 1600..1699[D], 1770..1799[D]'],
  // § 272 Abs. 1 Satz 3 HGB: eingeforderte, noch nicht eingezahlte Einlagen are shown apart under the Forderungen.
  ['AB25', 'eingeforderte, noch nicht eingezahlte Einlagen', '0810..0819, 0830..0838'],
  // 1330 Schecks, 1360 Geldtransit
  ['AB4', 'IV. Kassenbestand, Bundesbankguthaben, Guthaben bei Kreditinstituten und Schecks', '1000..1099, 1100..1299[D], 1330, 1360'],
  ['AC', 'C. Rechnungsabgrenzungsposten', '0980..0989'],
  ['AT', 'Summe Aktiva', 'AA + AB + AC'],

  ['P0', 'PASSIVA'],
  { balance: 'CREDIT' },
  ['PA', 'A. Eigenkapital', 'PA1 + PA2 + PA3 + PA4 + PA5 + PA6'],
  ['PA1', 'I. Gezeichnetes Kapital', '0800..0809, 0820..0829, 0839'],
  ['PA2', 'II. Kapitalrücklage', '0840..0845'],
  ['PA3', 'III. Gewinnrücklagen', '0846..0859'],
  ['PA4', 'IV. Gewinnvortrag/Verlustvortrag', '0860..0869'],
  ['PA5', 'V. Jahresüberschuss/Jahresfehlbetrag', undefined, { result: true }],
  ['PA6', 'Privatkonten (Einzelunternehmen, Personengesellschaften)', '1800..1899'],
  ['PB', 'B. Rückstellungen', 'PB1 + PB2 + PB3'],
  ['PB1', '1. Rückstellungen für Pensionen und ähnliche Verpflichtungen', '0950..0954'],
  ['PB2', '2. Steuerrückstellungen', '0955..0968'],
  ['PB3', '3. sonstige Rückstellungen', '0970..0979'],
  ['PC', 'C. Verbindlichkeiten', 'PC2 + PC4 + PC8'],
  ['PC2', '2. Verbindlichkeiten gegenüber Kreditinstituten', '0630..0699, 1100..1299[C]'],
  // § 268 Abs. 5 HGB; SKR 03 0631..0639 are the loans with a Restlaufzeit bis 1 Jahr (0630 itself states none).
  ['PC21', 'davon mit einer Restlaufzeit bis zu einem Jahr', '0631..0639, 1100..1299[C]', { detailOf: 'PC2' }],
  ['PC4', '4. Verbindlichkeiten aus Lieferungen und Leistungen', '1600..1699[C]'],
  ['PC8', '8. sonstige Verbindlichkeiten', '1700..1769, 1770..1799[C], 1400..1499[C]'],
  ['PD', 'D. Rechnungsabgrenzungsposten', '0990..0995'],
  ['PE', 'E. Passive latente Steuern', '0969'],
  ['PT', 'Summe Passiva', 'PA + PB + PC + PD + PE'],
];

// § 275 Abs. 2: every line read credit − debit (Aufwendungen negative), so the result is the plain sum.
const GUV: readonly ModelRow[] = [
  { balance: 'CREDIT' },
  ['G01', '1. Umsatzerlöse', '8000..8799'],
  ['G02', '2. Erhöhung oder Verminderung des Bestands an fertigen und unfertigen Erzeugnissen', '8960..8989'],
  ['G03', '3. andere aktivierte Eigenleistungen', '8990..8999'],
  ['G04', '4. sonstige betriebliche Erträge', '2660, 2700..2749, 8800..8899'],
  ['G05', '5. Materialaufwand', 'G05A + G05B'],
  ['G05A', 'a) Aufwendungen für Roh-, Hilfs- und Betriebsstoffe und für bezogene Waren', '3000..3099, 3200..3969, 3990..3999'],
  ['G05B', 'b) Aufwendungen für bezogene Leistungen', '3100..3199'],
  ['G06', '6. Personalaufwand', 'G06A + G06B'],
  ['G06A', 'a) Löhne und Gehälter', '4100..4129, 4140..4159, 4170..4199'],
  ['G06B', 'b) soziale Abgaben und Aufwendungen für Altersversorgung und für Unterstützung', '4130..4139, 4160..4169'],
  ['G07', '7. Abschreibungen auf immaterielle Vermögensgegenstände des Anlagevermögens und Sachanlagen', '4820..4869'],
  // 2150 Kursdifferenzen and 2170..2179 nicht abziehbare Vorsteuer are operating expenses, not Zinsen.
  ['G08', '8. sonstige betriebliche Aufwendungen', '2150, 2170..2179, 2300..2499, 4200..4319, 4321..4819, 4870..4999'],
  ['G11', '11. sonstige Zinsen und ähnliche Erträge', '2650..2659, 2661..2699'],
  ['G13', '13. Zinsen und ähnliche Aufwendungen', '2100..2149, 2151..2169, 2180..2199'],
  // § 275 Abs. 2 Nr. 14: the Gewerbesteuer (4320) is a Steuer vom Ertrag.
  ['G14', '14. Steuern vom Einkommen und vom Ertrag', '2200..2289, 4320'],
  ['G15', '15. Ergebnis nach Steuern', 'G01 + G02 + G03 + G04 + G05 + G06 + G07 + G08 + G11 + G13 + G14'],
  ['G17', '17. Jahresüberschuss/Jahresfehlbetrag', 'G15', { result: true }],
];

export const DE_VARIANTS = ['HGB'];

export function deSpec(): StatementsSpec {
  return {
    country: 'DE', variant: 'HGB',
    offStatement: [{ prefix: '90', reason: 'Saldenvorträge: Eröffnungsbilanzkonten, die nach allen Vorträgen null ergeben' }],
    balanceSheet: { description: 'Bilanz (§ 266 HGB, SKR 03)', rows: BILANZ, totals: { assets: 'AT', equityAndLiabilities: 'PT' } },
    profitAndLoss: { description: 'Gewinn- und Verlustrechnung (§ 275 Abs. 2 HGB, SKR 03)', rows: GUV, resultLine: 'G17' },
  };
}

export const DE_INDICATORS = {
  ASSETS: { lines: ['AT'], direction: 'DEBIT' },
  EQUITY: { lines: ['PA'], direction: 'CREDIT' },
  // Kurzfristige Verbindlichkeiten: Lieferanten, sonstige, and the bank debts due within a year (PC2's davon).
  WORKING_CAPITAL: { lines: ['AB', 'PC21', 'PC4', 'PC8'], direction: 'DEBIT' },
  TREASURY_BALANCE: { lines: ['AB4', 'PC21'], direction: 'DEBIT' },
  TURNOVER: { lines: ['G01'], direction: 'CREDIT' },
  // Roh-, Hilfs- und Betriebsstoffe und Waren with their Bestandsveränderungen; not the bezogene Leistungen (G05B).
  PURCHASES: { lines: ['G05A'], direction: 'DEBIT' },
  STAFF_COST: { lines: ['G06'], direction: 'DEBIT' },
  OTHER_EXPENSES: { lines: ['G08'], direction: 'DEBIT' },
  TAXES: { lines: ['G14'], direction: 'DEBIT' },
  // Rohertrag (Handelsspanne): Umsatzerlöse − Wareneingang.
  TRADE_MARGIN: { lines: ['G01', 'G05A'], direction: 'CREDIT' },
  RESULT: { lines: ['G01', 'G02', 'G03', 'G04', 'G05', 'G06', 'G07', 'G08'], direction: 'CREDIT' },
  FINANCIAL_RESULT: { lines: ['G11', 'G13'], direction: 'CREDIT' },
  NET_RESULT: { lines: ['G17'], direction: 'CREDIT' },
} as const;
