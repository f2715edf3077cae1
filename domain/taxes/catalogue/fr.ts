/** France (metropolitan): TVA. */
import { domesticTreatments, rate, treatment, type TaxSystem, onlyRounding } from './build.ts';
import type { TaxCatalogue, TaxRate } from './types.ts';

const TAXES: readonly TaxRate[] = [
  rate('TVA20', 'TVA 20 %', 'TVA', 'STANDARD', '20'), // CGI art. 278
  rate('TVA10', 'TVA 10 %', 'TVA', 'REDUCED', '10'), // CGI art. 279
  rate('TVA5_5', 'TVA 5,5 %', 'TVA', 'SECOND_REDUCED', '5.5'), // CGI art. 278-0 bis
  rate('TVA2_1', 'TVA 2,1 %', 'TVA', 'SUPER_REDUCED', '2.1'), // CGI arts. 281 quater to 281 nonies
  // Exempt (CGI art. 261), intra-EU deliveries (art. 262 ter I), exports (art. 262 I), services taxed where
  // the business customer is (art. 259-1, the customer self-assesses): base shown, no TVA.
  rate('TVAEX', 'TVA exonérée', 'TVA', 'EXEMPT', '0'),
];

const exempt = TAXES[TAXES.length - 1];
// PCG: 445710 TVA collectée, 445660 TVA déductible sur autres biens et services.
const TVA: TaxSystem = { taxType: 'TVA', outputAccountCode: '445710', inputAccountCode: '445660', surcharge: false, cashVat: false, spanishKeys: false };

export const FR_TAXES: TaxCatalogue = {
  country: 'FR',
  // Per rate on the document: the invoice shows, per rate, the total excluding tax and the tax
  // (CGI ann. II art. 242 nonies A I); to the nearest cent, halves up (Regulation (EC) 1103/97 art. 5).
  // The rule is the only rounding allowed: to the nearest cent, never down (Reg. (EC) 1103/97 art. 5 for the euro).
  ...onlyRounding({ level: 'DOCUMENT_PER_RATE', mode: 'HALF_AWAY_FROM_ZERO', source: 'CGI ann. II art. 242 nonies A; Reg. (EC) 1103/97 art. 5' }),
  taxes: TAXES,
  treatments: [
    ...domesticTreatments(TVA, TAXES, (t) => `France ${t.name}`),
    treatment(TVA, 'EXEMPT', 'EXEMPT', 'Exonération de TVA (CGI art. 261)', exempt),
    treatment(TVA, 'INTRA_EU_GOODS', 'EU-GOODS', 'Livraison intracommunautaire exonérée (CGI art. 262 ter I)', exempt),
    treatment(TVA, 'INTRA_EU_SERVICES', 'EU-SERVICES', 'Autoliquidation par le preneur (CGI art. 283-2)', exempt),
    treatment(TVA, 'EXPORT', 'EXPORT', 'Exportation exonérée (CGI art. 262 I)', exempt),
  ],
  ratesSetByOrganisation: false,
  withholdingAccountCode: null,
};
