/** Ireland: VAT. */
import { domesticTreatments, rate, treatment, type TaxSystem, onlyRounding } from './build.ts';
import type { TaxCatalogue, TaxRate } from './types.ts';

// VAT Consolidation Act 2010 (VATCA) s. 46(1): standard 23, reduced 13.5 (Sch. 3), second reduced 9,
// zero (Sch. 2). Left out: the 4.8 % livestock rate and the flat-rate farmer addition.
const TAXES: readonly TaxRate[] = [
  rate('VAT23', 'VAT 23 %', 'NOT_SPECIFIED', 'STANDARD', '23'),
  rate('VAT13_5', 'VAT 13.5 %', 'NOT_SPECIFIED', 'REDUCED', '13.5'),
  rate('VAT9', 'VAT 9 %', 'NOT_SPECIFIED', 'SECOND_REDUCED', '9'),
  rate('VAT0', 'VAT 0 %', 'NOT_SPECIFIED', 'ZERO', '0'),
  // Exempt (VATCA Sch. 1), intra-EU deliveries of goods (zero-rated, Sch. 2 para. 3), exports (Sch. 2 para. 1),
  // services to EU businesses (s. 34, the customer self-assesses): base shown, no VAT.
  rate('VATEX', 'VAT exempt', 'NOT_SPECIFIED', 'EXEMPT', '0'),
];

const exempt = TAXES[TAXES.length - 1];
// UK & Ireland common chart (Sage 50 nominal codes): 2200 Sales Tax Control, 2201 Purchase Tax Control.
const VAT: TaxSystem = { taxType: 'NOT_SPECIFIED', outputAccountCode: '2200', inputAccountCode: '2201', surcharge: false, cashVat: false, spanishKeys: false };

export const IE_TAXES: TaxCatalogue = {
  country: 'IE',
  // Per rate on the invoice (VAT Regulations 2010 reg. 20(1): the VAT payable at each rate); to the nearest
  // cent, halves up (Regulation (EC) 1103/97 art. 5).
  // The rule is the only rounding allowed: to the nearest cent, never down (Reg. (EC) 1103/97 art. 5 for the euro).
  ...onlyRounding({ level: 'DOCUMENT_PER_RATE', mode: 'HALF_AWAY_FROM_ZERO', source: 'S.I. 639/2010 reg. 20; Reg. (EC) 1103/97 art. 5' }),
  taxes: TAXES,
  treatments: [
    ...domesticTreatments(VAT, TAXES, (t) => `Ireland ${t.name}`),
    treatment(VAT, 'EXEMPT', 'EXEMPT', 'Exempt supply (VATCA 2010 Sch. 1)', exempt),
    treatment(VAT, 'INTRA_EU_GOODS', 'EU-GOODS', 'Intra-Community supply of goods, zero-rated (VATCA 2010 Sch. 2)', exempt),
    treatment(VAT, 'INTRA_EU_SERVICES', 'EU-SERVICES', 'Reverse charge: the customer accounts for the VAT (VATCA 2010 s. 34)', exempt),
    treatment(VAT, 'EXPORT', 'EXPORT', 'Export of goods, zero-rated (VATCA 2010 Sch. 2)', exempt),
  ],
  ratesSetByOrganisation: false,
  withholdingAccountCode: null,
};
