/** United Kingdom (Great Britain): VAT. Since 1 January 2021 GB is outside the EU VAT area: no intra-EU treatments. */
import { domesticTreatments, rate, treatment, type TaxSystem } from './build.ts';
import type { TaxCatalogue, TaxRate, TaxRounding } from './types.ts';

const TAXES: readonly TaxRate[] = [
  rate('VAT20', 'VAT 20 %', 'NOT_SPECIFIED', 'STANDARD', '20'), // VATA 1994 s. 2(1)
  rate('VAT5', 'VAT 5 %', 'NOT_SPECIFIED', 'REDUCED', '5'), // VATA 1994 s. 29A, Sch. 7A
  rate('VAT0', 'VAT 0 %', 'NOT_SPECIFIED', 'ZERO', '0'), // VATA 1994 s. 30, Sch. 8; exports s. 30(6), Notice 703
  rate('VATEX', 'VAT exempt', 'NOT_SPECIFIED', 'EXEMPT', '0'), // VATA 1994 s. 31, Sch. 9
];

const byCode = (code: string): TaxRate => TAXES.find((t) => t.code === code)!;
// Sage 50 nominal codes: 2200 Sales Tax Control Account, 2201 Purchase Tax Control Account. Sage's TaxType
// has no value for UK VAT: NOT_SPECIFIED.
const VAT: TaxSystem = { taxType: 'NOT_SPECIFIED', outputAccountCode: '2200', inputAccountCode: '2201', surcharge: false, cashVat: false, spanishKeys: false };

const NEAREST_PER_RATE: TaxRounding = { level: 'DOCUMENT_PER_RATE', mode: 'HALF_AWAY_FROM_ZERO', source: 'HMRC VATREC12030 (nearest penny)' };

export const GB_TAXES: TaxCatalogue = {
  country: 'GB',
  // Invoice level, per rate, to the nearest penny, halves up: always acceptable (HMRC manual VATREC12030),
  // retailers included. Notice 700 para. 17.5's concession to round down applies to the invoice's TOTAL VAT
  // (VATREC12010), not per rate, and retailers may not use it: an organisation asks for it explicitly.
  rounding: NEAREST_PER_RATE,
  // Line level to the nearest penny (Notice 700 para. 17.5); the invoice's total VAT rounded down, not for
  // retailers (VATREC12010, VATREC12030). Never line amounts rounded down to whole pennies.
  roundingOptions: [
    NEAREST_PER_RATE,
    { level: 'LINE', mode: 'HALF_AWAY_FROM_ZERO', source: 'HMRC VAT Notice 700 para. 17.5 (line level, nearest penny)' },
    { level: 'DOCUMENT_TOTAL', mode: 'DOWN', source: 'HMRC VAT Notice 700 para. 17.5; VATREC12010 (total VAT rounded down; not retailers)' },
  ],
  taxes: TAXES,
  treatments: [
    ...domesticTreatments(VAT, TAXES, (t) => `UK ${t.name}`),
    treatment(VAT, 'EXEMPT', 'EXEMPT', 'Exempt supply (VATA 1994 Sch. 9)', byCode('VATEX')),
    treatment(VAT, 'EXPORT', 'EXPORT', 'Zero-rated export of goods (VAT Notice 703)', byCode('VAT0')),
    treatment(VAT, 'OUTSIDE_SCOPE', 'OUTSIDE-SCOPE', 'Services to a business abroad, outside the scope of UK VAT (VAT Notice 741A)', byCode('VATEX')),
  ],
  ratesSetByOrganisation: false,
  withholdingAccountCode: null,
};
