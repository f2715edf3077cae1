/** Spain: IVA (peninsula and Balearics) and IGIC (Canary Islands), with recargo de equivalencia and IRPF withholding. */
import { domesticTreatments, rate, treatment, type TaxSystem, onlyRounding } from './build.ts';
import type { TaxCatalogue, TaxRate } from './types.ts';

const TAXES: readonly TaxRate[] = [
  // IVA: Ley 37/1992 (LIVA) art. 90.Uno (21); art. 91.Uno (10); art. 91.Dos (4).
  // Recargo de equivalencia: LIVA art. 161 (5.2 / 1.4 / 0.5); the 1.75 of tobacco is left out.
  rate('IVA21', 'IVA 21 %', 'IVA', 'STANDARD', '21', '5.2'),
  rate('IVA10', 'IVA 10 %', 'IVA', 'REDUCED', '10', '1.4'),
  rate('IVA4', 'IVA 4 %', 'IVA', 'SUPER_REDUCED', '4', '0.5'),
  // No ordinary 0 % IVA: the tipo cero on basic food (RDL 20/2022 art. 72, extended by RDL 4/2024) ran only to
  // 30-9-2024, then 2 % (recargo 0.26 %) to 31-12-2024; 4 % again from 1-1-2025. Rates carry no validity dates,
  // so an expired rate is not kept live.
  // Operations without IVA (exempt: LIVA arts. 20, 21, 25; not subject: art. 69): base declared, no quota.
  rate('IVAEX', 'IVA exento', 'IVA', 'EXEMPT', '0', '0'),
  // IGIC: Ley 20/1991 art. 27 (as amended by Ley 4/2012): general 7, reducido 3, cero 0, incrementados 9.5 and 15.
  // Left out: the special rates of tobacco and the rates of Ley 4/2012's transitional goods lists. No recargo in IGIC.
  rate('IGIC7', 'IGIC 7 %', 'IGIC', 'STANDARD', '7'),
  rate('IGIC3', 'IGIC 3 %', 'IGIC', 'REDUCED', '3'),
  rate('IGIC0', 'IGIC 0 %', 'IGIC', 'ZERO', '0'),
  rate('IGIC9_5', 'IGIC 9,5 %', 'IGIC', 'INCREASED', '9.5'),
  rate('IGIC15', 'IGIC 15 %', 'IGIC', 'SPECIAL_INCREASED', '15'),
  rate('IGICEX', 'IGIC exento', 'IGIC', 'EXEMPT', '0'),
  // IRPF withholding on professionals' invoices and rents: Ley 35/2006 art. 101; RD 439/2007 (RIRPF)
  // art. 101.5.a (15, professional activities), 101.5.a second paragraph (7, the start year and the two next),
  // art. 101.8 with art. 100 (19, rent of urban property).
  rate('IRPF15', 'IRPF 15 %', 'IRPF', 'WITHHOLDING', '15'),
  rate('IRPF7', 'IRPF 7 %', 'IRPF', 'WITHHOLDING', '7'),
  rate('IRPF19', 'IRPF 19 %', 'IRPF', 'WITHHOLDING', '19'),
];

const byCode = (code: string): TaxRate => TAXES.find((t) => t.code === code)!;

// PGC 2007: 477 H.P. IVA repercutido (recargo included), 472 H.P. IVA soportado; IGIC in their sub-accounts
// 4771/4721, as in common use in the Canaries.
const IVA: TaxSystem = { taxType: 'IVA', outputAccountCode: '4770000', inputAccountCode: '4720000', surcharge: true, cashVat: true, spanishKeys: true };
const IGIC: TaxSystem = { ...IVA, taxType: 'IGIC', outputAccountCode: '4771000', inputAccountCode: '4721000', surcharge: false };

export const ES_TAXES: TaxCatalogue = {
  country: 'ES',
  // Line amounts to the cent; the quota per rate on the document's base for that rate, which the invoice shows
  // (RD 1619/2012 art. 6.1: base, rate and quota per rate); to the nearest cent, halves away from zero
  // (Ley 46/1998 art. 11).
  // The rule is the only rounding allowed: to the nearest cent, never down (Reg. (EC) 1103/97 art. 5 for the euro).
  ...onlyRounding({ level: 'DOCUMENT_PER_RATE', mode: 'HALF_AWAY_FROM_ZERO', source: 'RD 1619/2012 art. 6.1; Ley 46/1998 art. 11' }),
  taxes: TAXES,
  treatments: [
    ...domesticTreatments(IVA, TAXES, (t) => `Nacional ${t.name}`),
    treatment(IVA, 'EXEMPT', 'EXEMPT', 'Operación exenta de IVA (LIVA art. 20)', byCode('IVAEX')),
    treatment(IVA, 'INTRA_EU_GOODS', 'EU-GOODS', 'Entrega intracomunitaria de bienes exenta (LIVA art. 25)', byCode('IVAEX')),
    treatment(IVA, 'INTRA_EU_SERVICES', 'EU-SERVICES', 'Prestación intracomunitaria de servicios, inversión del sujeto pasivo (LIVA art. 69)', byCode('IVAEX')),
    treatment(IVA, 'EXPORT', 'EXPORT', 'Exportación exenta (LIVA art. 21)', byCode('IVAEX')),
    ...domesticTreatments(IGIC, TAXES, (t) => `Canarias ${t.name}`),
    treatment(IGIC, 'EXEMPT', 'IGIC-EXEMPT', 'Operación exenta de IGIC (Ley 20/1991 art. 10)', byCode('IGICEX')),
    // Deliveries from the Canaries to anywhere else (the peninsula, the EU, abroad) leave as exports.
    treatment(IGIC, 'EXPORT', 'IGIC-EXPORT', 'Exportación exenta de IGIC (Ley 20/1991 art. 11)', byCode('IGICEX')),
  ],
  ratesSetByOrganisation: false,
  // PGC 2007: 473 Hacienda Pública, retenciones y pagos a cuenta (what the customer withheld from us).
  withholdingAccountCode: '4730000',
};
