/** Germany: Umsatzsteuer, with the SKR03 accounts per rate. */
import { rate, treatment, type TaxSystem, onlyRounding } from './build.ts';
import type { TaxCatalogue, TaxRate } from './types.ts';

const UST19 = rate('UST19', 'USt 19 %', 'UST', 'STANDARD', '19'); // § 12 Abs. 1 UStG
const UST7 = rate('UST7', 'USt 7 %', 'UST', 'REDUCED', '7'); // § 12 Abs. 2 UStG
// Tax-free supplies (§ 4 UStG): exempt, intra-EU deliveries (§ 4 Nr. 1 b, § 6a), exports (§ 4 Nr. 1 a, § 6);
// services to EU businesses are taxed where the customer is (§ 3a Abs. 2), who owes the tax (§ 13b; § 14a Abs. 1).
const USTEX = rate('USTEX', 'USt-frei', 'UST', 'EXEMPT', '0');
const TAXES: readonly TaxRate[] = [UST19, UST7, USTEX];

// SKR03: 1776 Umsatzsteuer 19 % / 1576 Vorsteuer 19 %; 1771 Umsatzsteuer 7 % / 1571 Vorsteuer 7 %.
const AT19: TaxSystem = { taxType: 'UST', outputAccountCode: '1776', inputAccountCode: '1576', surcharge: false, cashVat: false, spanishKeys: false };
const AT7: TaxSystem = { ...AT19, outputAccountCode: '1771', inputAccountCode: '1571' };

export const DE_TAXES: TaxCatalogue = {
  country: 'DE',
  // Per rate on the invoice: the invoice states the tax amount per rate (§ 14 Abs. 4 Satz 1 Nr. 8 UStG;
  // UStAE 14.5 on several rates); commercial rounding to the cent (halves up).
  // The rule is the only rounding allowed: to the nearest cent, never down (Reg. (EC) 1103/97 art. 5 for the euro).
  ...onlyRounding({ level: 'DOCUMENT_PER_RATE', mode: 'HALF_AWAY_FROM_ZERO', source: '§ 14 Abs. 4 Nr. 8 UStG; UStAE 14.5' }),
  taxes: TAXES,
  treatments: [
    treatment(AT19, 'DOMESTIC', 'NAT-UST19', 'Inland USt 19 %', UST19),
    treatment(AT7, 'DOMESTIC', 'NAT-UST7', 'Inland USt 7 %', UST7),
    treatment(AT19, 'EXEMPT', 'EXEMPT', 'Steuerfreier Umsatz (§ 4 UStG)', USTEX),
    treatment(AT19, 'INTRA_EU_GOODS', 'EU-GOODS', 'Steuerfreie innergemeinschaftliche Lieferung (§ 4 Nr. 1 b, § 6a UStG)', USTEX),
    treatment(AT19, 'INTRA_EU_SERVICES', 'EU-SERVICES', 'Steuerschuldnerschaft des Leistungsempfängers (§ 13b UStG)', USTEX),
    treatment(AT19, 'EXPORT', 'EXPORT', 'Steuerfreie Ausfuhrlieferung (§ 4 Nr. 1 a, § 6 UStG)', USTEX),
  ],
  ratesSetByOrganisation: false,
  withholdingAccountCode: null,
};
