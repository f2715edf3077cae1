/**
 * Spain: the PGC's balance sheet and P&L (RD 1514/2007 normal and abreviado, RD 1515/2007 PYMES, as amended by
 * RD 602/2016), one table for the three. Account equivalences as the AEAT's Modelo 200 manual gives them
 * ("Inmovilizado intangible = 20, (280), (290)"). Flags: N normal, A abreviado, P PYMES; a row without `in` is in all
 * three, and a formula keyed { N: ..., AP: ... } differs per variant (the normal model breaks a line into items).
 * Where the legal text places an account by the sign of its balance (banks, 551, 5525) the rows use [D] and [C].
 * Simplifications, stated: the a)/b) long/short-term splits of "Clientes" and "Proveedores" are not lines; of the
 * normal P&L's lettered sub-items, those of 1, 4, 6 and 7 are (the others' lines are whole).
 */
import type { ModelRow, StatementsSpec } from '../../reports/statement-model.ts';

const BALANCE_SHEET: readonly ModelRow[] = [
  ['A0', 'ACTIVO'],
  { balance: 'DEBIT' },
  ['AA', 'A) ACTIVO NO CORRIENTE', 'AA1 + AA2 + AA3 + AA4 + AA5 + AA6'],
  ['AA1', 'I. Inmovilizado intangible.', { N: 'AA11 + AA12 + AA13 + AA14 + AA15 + AA16 + AA17', AP: '20, (280), (290)' }],
  ['AA11', '1. Desarrollo.', '201, (2801), (2901)', { in: 'N' }],
  ['AA12', '2. Concesiones.', '202, (2802), (2902)', { in: 'N' }],
  ['AA13', '3. Patentes, licencias, marcas y similares.', '203, (2803), (2903)', { in: 'N' }],
  ['AA14', '4. Fondo de comercio.', '204, (2804), (2904)', { in: 'N' }],
  ['AA15', '5. Aplicaciones informáticas.', '206, (2806), (2906)', { in: 'N' }],
  ['AA16', '6. Investigación.', '200, (2800), (2900)', { in: 'N' }],
  // 207 derechos sobre activos cedidos en uso, 208 (no PGC account: with the others), 209 anticipos, and their contras
  ['AA17', '7. Otro inmovilizado intangible.', '205, 207, 208, 209, (2805), (2807), (2808), (2809), (2905), (2907), (2908), (2909)', { in: 'N' }],
  ['AA2', 'II. Inmovilizado material.', { N: 'AA21 + AA22 + AA23', AP: '21, (281), (291), 23' }],
  ['AA21', '1. Terrenos y construcciones.', '210, 211, (2810), (2811), (2910), (2911)', { in: 'N' }],
  ['AA22', '2. Instalaciones técnicas y otro inmovilizado material.', '212..219, (2812..2819), (2912..2919)', { in: 'N' }],
  ['AA23', '3. Inmovilizado en curso y anticipos.', '23', { in: 'N' }],
  ['AA3', 'III. Inversiones inmobiliarias.', '22, (282), (292)'],
  ['AA4', 'IV. Inversiones en empresas del grupo y asociadas a largo plazo.', '2403, 2404, 2413, 2414, 2423, 2424, (2493), (2494), (293), (2943), (2944), (2953), (2954)'],
  ['AA5', 'V. Inversiones financieras a largo plazo.', '2405, 2415, 2425, (2495), 250, 251, 252, 253, 254, 255, 257, 258, (259), 26, (2945), (2955), (296), (297), (298)'],
  ['AA6', 'VI. Activos por impuesto diferido.', '474'],
  ['AB', 'B) ACTIVO CORRIENTE', { NA: 'AB1 + AB2 + AB3 + AB4 + AB5 + AB6 + AB7', P: 'AB2 + AB3 + AB4 + AB5 + AB6 + AB7' }],
  // The PYMES model has no activos no corrientes mantenidos para la venta: its activo corriente starts at I. Existencias.
  ['AB1', 'I. Activos no corrientes mantenidos para la venta.', '580, 581, 582, 583, 584, (599)', { in: 'NA' }],
  ['AB2', { NA: 'II. Existencias.', P: 'I. Existencias.' }, { N: 'AB21 + AB22 + AB23 + AB24 + AB25 + AB26', AP: '30, 31, 32, 33, 34, 35, 36, (39), 407' }],
  // (39): the deterioro accounts the PGC does not number (397..399) go with the comerciales, as PYMES' (39) has them
  ['AB21', '1. Comerciales.', '30, (39)', { in: 'N' }],
  ['AB22', '2. Materias primas y otros aprovisionamientos.', '31, 32, (391), (392)', { in: 'N' }],
  ['AB23', '3. Productos en curso.', '33, 34, (393), (394)', { in: 'N' }],
  ['AB24', '4. Productos terminados.', '35, (395)', { in: 'N' }],
  ['AB25', '5. Subproductos, residuos y materiales recuperados.', '36, (396)', { in: 'N' }],
  ['AB26', '6. Anticipos a proveedores.', '407', { in: 'N' }],
  ['AB3', { NA: 'III. Deudores comerciales y otras cuentas a cobrar.', P: 'II. Deudores comerciales y otras cuentas a cobrar.' }, { N: 'AB31 + AB32 + AB33 + AB34 + AB35 + AB36 + AB37', AP: 'AB31 + AB32 + AB33' }],
  ['AB31', '1. Clientes por ventas y prestaciones de servicios.', { N: '430, 431, 432, 435, 436, (437), (490), (4935)', AP: '430, 431, 432, 433, 434, 435, 436, (437), (490), (4933), (4934), (4935)' }],
  ['AB32', '2. Clientes, empresas del grupo y asociadas.', '433, 434, (4933), (4934)', { in: 'N' }],
  ['AB33', '3. Deudores varios.', '44, 5531, 5533', { in: 'N' }],
  ['AB34', '4. Personal.', '460, 544', { in: 'N' }],
  ['AB35', '5. Activos por impuesto corriente.', '4709', { in: 'N' }],
  ['AB36', '6. Otros créditos con las Administraciones Públicas.', '470, 471, 472, 473', { in: 'N' }],
  ['AB37', '7. Accionistas (socios) por desembolsos exigidos.', '5580', { in: 'N' }],
  ['AB32', '2. Accionistas (socios) por desembolsos exigidos.', '5580', { in: 'AP' }],
  ['AB33', '3. Otros deudores.', '44, 460, 470, 471, 472, 473, 544, 5531, 5533', { in: 'AP' }],
  ['AB4', { NA: 'IV. Inversiones en empresas del grupo y asociadas a corto plazo.', P: 'III. Inversiones en empresas del grupo y asociadas a corto plazo.' }, '5303, 5304, 5313, 5314, 5323, 5324, 5333, 5334, 5343, 5344, 5353, 5354, (5393), (5394), 5523[D], 5524[D], (593), (5943), (5944), (5953), (5954)'],
  ['AB5', { NA: 'V. Inversiones financieras a corto plazo.', P: 'IV. Inversiones financieras a corto plazo.' }, '5305, 5315, 5325, 5335, 5345, 5355, (5395), 540, 541, 542, 543, 545, 546, 547, 548, (549), 551[D], 5525[D], 5590, 5593, 565, 566, (5945), (5955), (597), (598)'],
  ['AB6', { NA: 'VI. Periodificaciones a corto plazo.', P: 'V. Periodificaciones a corto plazo.' }, '480, 567'],
  ['AB7', { NA: 'VII. Efectivo y otros activos líquidos equivalentes.', P: 'VI. Efectivo y otros activos líquidos equivalentes.' }, '570, 571, 572[D], 573[D], 574, 575, 576'],
  ['AT', 'TOTAL ACTIVO (A + B)', 'AA + AB'],

  ['P0', 'PATRIMONIO NETO Y PASIVO'],
  { balance: 'CREDIT' },
  ['PA', 'A) PATRIMONIO NETO', { NA: 'PA1 + PA2 + PA3', P: 'PA1 + PA3' }],
  ['PA1', 'A-1) Fondos propios.', { N: 'PA11 + PA12 + PA13 + PA14 + PA15 + PA16 + PA17 + PA18 + PA19', AP: 'PA11 + PA12 + PA13 + PA14 + PA15 + PA16 + PA17 + PA18' }],
  ['PA11', 'I. Capital.', 'PA111 + PA112'],
  ['PA111', '1. Capital escriturado.', '100, 101, 102'],
  ['PA112', '2. (Capital no exigido).', '(1030), (1040)'],
  ['PA12', 'II. Prima de emisión.', '110'],
  ['PA13', 'III. Reservas.', { N: 'PA131 + PA132', AP: '111, 112, 113, 114, 115, 119' }],
  ['PA131', '1. Legal y estatutarias.', '112, 1141', { in: 'N' }],
  ['PA132', '2. Otras reservas.', '113, 114, 115, 119', { in: 'N' }],
  ['PA14', 'IV. (Acciones y participaciones en patrimonio propias).', '(108), (109)'],
  ['PA15', 'V. Resultados de ejercicios anteriores.', '120, (121)'],
  ['PA16', 'VI. Otras aportaciones de socios.', '118'],
  ['PA17', 'VII. Resultado del ejercicio.', '129', { result: true }],
  ['PA18', 'VIII. (Dividendo a cuenta).', '(557)'],
  ['PA19', 'IX. Otros instrumentos de patrimonio neto.', '111', { in: 'N' }],
  ['PA2', 'A-2) Ajustes por cambios de valor.', '133, 134, 135, 136, 137', { in: 'NA' }],
  ['PA3', 'A-3) Subvenciones, donaciones y legados recibidos.', '130, 131, 132', { in: 'NA' }],
  ['PA3', 'A-2) Subvenciones, donaciones y legados recibidos.', '130, 131, 132', { in: 'P' }],
  ['PB', 'B) PASIVO NO CORRIENTE', 'PB1 + PB2 + PB3 + PB4 + PB5'],
  ['PB1', 'I. Provisiones a largo plazo.', '14'],
  // The normal model itemises the deudas a largo plazo in five; abreviado and PYMES in three.
  ['PB2', 'II. Deudas a largo plazo.', { N: 'PB20 + PB21 + PB22 + PB24 + PB25', AP: 'PB21 + PB22 + PB23' }],
  ['PB20', '1. Obligaciones y otros valores negociables.', '177, 178, 179', { in: 'N' }],
  ['PB21', { N: '2. Deudas con entidades de crédito.', AP: '1. Deudas con entidades de crédito.' }, '1605, 170'],
  ['PB22', { N: '3. Acreedores por arrendamiento financiero.', AP: '2. Acreedores por arrendamiento financiero.' }, '1625, 174'],
  ['PB24', '4. Derivados.', '176', { in: 'N' }],
  ['PB25', '5. Otros pasivos financieros.', '1615, 1635, 171, 172, 173, 175, 180, 185, 189', { in: 'N' }],
  ['PB23', '3. Otras deudas a largo plazo.', '1615, 1635, 171, 172, 173, 175, 176, 177, 178, 179, 180, 185, 189', { in: 'AP' }],
  ['PB3', 'III. Deudas con empresas del grupo y asociadas a largo plazo.', '1603, 1604, 1613, 1614, 1623, 1624, 1633, 1634'],
  ['PB4', 'IV. Pasivos por impuesto diferido.', '479'],
  ['PB5', 'V. Periodificaciones a largo plazo.', '181'],
  ['PC', 'C) PASIVO CORRIENTE', { NA: 'PC0 + PC1 + PC2 + PC3 + PC4 + PC5', P: 'PC1 + PC2 + PC3 + PC4 + PC5' }],
  ['PC0', 'I. Pasivos vinculados con activos no corrientes mantenidos para la venta.', '585, 586, 587, 588, 589', { in: 'NA' }],
  ['PC1', { NA: 'II. Provisiones a corto plazo.', P: 'I. Provisiones a corto plazo.' }, '499, 529'],
  ['PC2', { NA: 'III. Deudas a corto plazo.', P: 'II. Deudas a corto plazo.' }, 'PC21 + PC22 + PC23'],
  ['PC21', '1. Deudas con entidades de crédito.', '5105, 520, 527, 572[C], 573[C]'],
  ['PC22', '2. Acreedores por arrendamiento financiero.', '5125, 524'],
  ['PC23', '3. Otras deudas a corto plazo.', '(1034), (1044), (190), (192), 194, 500, 501, 505, 506, 509, 5115, 5135, 5145, 521, 522, 523, 525, 526, 528, 551[C], 5525[C], 555, 5565, 5566, 5595, 5598, 560, 561, 569'],
  ['PC3', { NA: 'IV. Deudas con empresas del grupo y asociadas a corto plazo.', P: 'III. Deudas con empresas del grupo y asociadas a corto plazo.' }, '5103, 5104, 5113, 5114, 5123, 5124, 5133, 5134, 5143, 5144, 5523[C], 5524[C], 5563, 5564'],
  ['PC4', { NA: 'V. Acreedores comerciales y otras cuentas a pagar.', P: 'IV. Acreedores comerciales y otras cuentas a pagar.' }, { N: 'PC41 + PC42 + PC43 + PC44 + PC45 + PC46 + PC47', AP: 'PC41 + PC42' }],
  ['PC41', '1. Proveedores.', { N: '400, 401, 405, (406)', AP: '400, 401, 403, 404, 405, (406)' }],
  ['PC42', '2. Proveedores, empresas del grupo y asociadas.', '403, 404', { in: 'N' }],
  ['PC43', '3. Acreedores varios.', '41', { in: 'N' }],
  ['PC44', '4. Personal (remuneraciones pendientes de pago).', '465, 466', { in: 'N' }],
  ['PC45', '5. Pasivos por impuesto corriente.', '4752', { in: 'N' }],
  ['PC46', '6. Otras deudas con las Administraciones Públicas.', '475, 476, 477', { in: 'N' }],
  ['PC47', '7. Anticipos de clientes.', '438', { in: 'N' }],
  ['PC42', '2. Otros acreedores.', '41, 438, 465, 466, 475, 476, 477', { in: 'AP' }],
  ['PC5', { NA: 'VI. Periodificaciones a corto plazo.', P: 'V. Periodificaciones a corto plazo.' }, '485, 568'],
  ['PT', 'TOTAL PATRIMONIO NETO Y PASIVO (A + B + C)', 'PA + PB + PC'],
];

const PROFIT_AND_LOSS: readonly ModelRow[] = [
  { balance: 'CREDIT' },
  ['R01', '1. Importe neto de la cifra de negocios.', { N: 'R01A + R01B', AP: '700, 701, 702, 703, 704, 705, (706), (708), (709)' }],
  ['R01A', 'a) Ventas.', '700, 701, 702, 703, 704, (706), (708), (709)', { in: 'N' }],
  ['R01B', 'b) Prestaciones de servicios.', '705', { in: 'N' }],
  ['R02', '2. Variación de existencias de productos terminados y en curso de fabricación.', '(6930), 71, 7930'],
  ['R03', '3. Trabajos realizados por la empresa para su activo.', '73'],
  ['R04', '4. Aprovisionamientos.', { N: 'R04A + R04B + R04C + R04D', AP: '(600), (601), (602), 606, (607), 608, 609, 61, (6931), (6932), (6933), 7931, 7932, 7933' }],
  ['R04A', 'a) Consumo de mercaderías.', '(600), 6060, 6080, 6090, 610', { in: 'N' }],
  // 606, 608, 609 and 61 whole: their subaccounts the PGC does not number go with the materias consumibles.
  ['R04B', 'b) Consumo de materias primas y otras materias consumibles.', '(601), (602), 606, 608, 609, 61', { in: 'N' }],
  ['R04C', 'c) Trabajos realizados por otras empresas.', '(607)', { in: 'N' }],
  ['R04D', 'd) Deterioro de mercaderías, materias primas y otros aprovisionamientos.', '(6931), (6932), (6933), 7931, 7932, 7933', { in: 'N' }],
  ['R05', '5. Otros ingresos de explotación.', '740, 747, 75'],
  ['R06', '6. Gastos de personal.', { N: 'R06A + R06B + R06C', AP: '(64), 7950, 7957' }],
  ['R06A', 'a) Sueldos, salarios y asimilados.', '(640), (641), (6450)', { in: 'N' }],
  ['R06B', 'b) Cargas sociales.', '(64)', { in: 'N' }],
  ['R06C', 'c) Provisiones.', '(644), (6457), 7950, 7957', { in: 'N' }],
  ['R07', '7. Otros gastos de explotación.', { N: 'R07A + R07B + R07C + R07D', AP: '(62), (631), (634), 636, 639, (65), (694), (695), 794, 7954' }],
  ['R07A', 'a) Servicios exteriores.', '(62)', { in: 'N' }],
  ['R07B', 'b) Tributos.', '(631), (634), 636, 639', { in: 'N' }],
  ['R07C', 'c) Pérdidas, deterioro y variación de provisiones por operaciones comerciales.', '(650), (694), (695), 794, 7954', { in: 'N' }],
  ['R07D', 'd) Otros gastos de gestión corriente.', '(65)', { in: 'N' }],
  ['R08', '8. Amortización del inmovilizado.', '(68)'],
  ['R09', '9. Imputación de subvenciones de inmovilizado no financiero y otras.', '746'],
  ['R10', '10. Excesos de provisiones.', '7951, 7952, 7955, 7956'],
  ['R11', '11. Deterioro y resultado por enajenaciones del inmovilizado.', '(670), (671), (672), (690), (691), (692), 770, 771, 772, 790, 791, 792'],
  ['R12N', '12. Diferencia negativa de combinaciones de negocio.', '774', { in: 'NA' }],
  ['R12', { NA: '13. Otros resultados.', P: '12. Otros resultados.' }, '(678), 778'],
  ['RA', { NA: 'A) RESULTADO DE EXPLOTACIÓN (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 12 + 13)', P: 'A) RESULTADO DE EXPLOTACIÓN (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 12)' },
    { NA: 'R01 + R02 + R03 + R04 + R05 + R06 + R07 + R08 + R09 + R10 + R11 + R12N + R12', P: 'R01 + R02 + R03 + R04 + R05 + R06 + R07 + R08 + R09 + R10 + R11 + R12' }],
  ['R13', { NA: '14. Ingresos financieros.', P: '13. Ingresos financieros.' }, '760, 761, 762, 767, 769'],
  ['R14', { NA: '15. Gastos financieros.', P: '14. Gastos financieros.' }, '(660), (661), (662), (664), (665), (669)'],
  ['R15', { NA: '16. Variación de valor razonable en instrumentos financieros.', P: '15. Variación de valor razonable en instrumentos financieros.' }, '(663), 763'],
  ['R16', { NA: '17. Diferencias de cambio.', P: '16. Diferencias de cambio.' }, '(668), 768'],
  ['R17', { NA: '18. Deterioro y resultado por enajenaciones de instrumentos financieros.', P: '17. Deterioro y resultado por enajenaciones de instrumentos financieros.' }, '(666), (667), (673), (675), (696), (697), (698), (699), 766, 773, 775, 796, 797, 798, 799'],
  ['RB', { NA: 'B) RESULTADO FINANCIERO (14 + 15 + 16 + 17 + 18)', P: 'B) RESULTADO FINANCIERO (13 + 14 + 15 + 16 + 17)' }, 'R13 + R14 + R15 + R16 + R17'],
  ['RC', 'C) RESULTADO ANTES DE IMPUESTOS (A + B)', 'RA + RB'],
  ['R18', { NA: '19. Impuestos sobre beneficios.', P: '18. Impuestos sobre beneficios.' }, '(6300), 6301, (633), 638'],
  ['RD', { NA: 'D) RESULTADO DEL EJERCICIO (C + 19)', P: 'D) RESULTADO DEL EJERCICIO (C + 18)' }, 'RC + R18', { result: true }],
];

/** Groups 8 and 9 are the statement of changes in equity's (ECPN), transferred to group 13 at the year end. */
const OFF_STATEMENT = [
  { prefix: '8', reason: 'Gastos imputados al patrimonio neto: estado de cambios en el patrimonio neto' },
  { prefix: '9', reason: 'Ingresos imputados al patrimonio neto: estado de cambios en el patrimonio neto' },
];

const VARIANTS = { PYMES: 'P', ABREVIADO: 'A', NORMAL: 'N' } as const;

export const ES_VARIANTS = Object.keys(VARIANTS);

export function esSpec(variant: string): StatementsSpec {
  const model = variant.toLowerCase();
  return {
    country: 'ES', variant, letter: VARIANTS[variant as keyof typeof VARIANTS], offStatement: OFF_STATEMENT,
    balanceSheet: { description: `Balance (PGC, modelo ${model})`, rows: BALANCE_SHEET, totals: { assets: 'AT', equityAndLiabilities: 'PT' } },
    profitAndLoss: { description: `Cuenta de pérdidas y ganancias (PGC, modelo ${model})`, rows: PROFIT_AND_LOSS, resultLine: 'RD' },
  };
}

/** accountingKpis: the lines (or account prefixes) each indicator sums, read in `direction`. */
export const ES_INDICATORS = {
  ASSETS: { lines: ['AT'], direction: 'DEBIT' },
  EQUITY: { lines: ['PA'], direction: 'CREDIT' },
  WORKING_CAPITAL: { lines: ['AB', 'PC'], direction: 'DEBIT' },
  TREASURY_BALANCE: { lines: ['AB7', 'PC21'], direction: 'DEBIT' },
  TURNOVER: { lines: ['R01'], direction: 'CREDIT' },
  // Consumo de mercaderías y de materias primas y otras materias consumibles (R04 a) + b) of the normal model): not
  // the trabajos realizados por otras empresas (607) nor the deterioro, as in FR and DE.
  PURCHASES: { prefixes: ['600', '601', '602', '606', '608', '609', '61'].map((prefix) => ({ prefix, sign: 1 as const })) },
  STAFF_COST: { lines: ['R06'], direction: 'DEBIT' },
  OTHER_EXPENSES: { lines: ['R07'], direction: 'DEBIT' },
  RESULT: { lines: ['RA'], direction: 'CREDIT' },
  FINANCIAL_RESULT: { lines: ['RB'], direction: 'CREDIT' },
  TAXES: { lines: ['R18'], direction: 'DEBIT' },
  NET_RESULT: { lines: ['RD'], direction: 'CREDIT' },
  // Margen comercial: ventas de mercaderías (700, with their 706/708/709 subaccounts) less their cost (600, 6080, 6090, 610).
  TRADE_MARGIN: { prefixes: [
    { prefix: '700', sign: -1 }, { prefix: '7060', sign: -1 }, { prefix: '7080', sign: -1 }, { prefix: '7090', sign: -1 },
    { prefix: '600', sign: -1 }, { prefix: '6060', sign: -1 }, { prefix: '6080', sign: -1 }, { prefix: '6090', sign: -1 }, { prefix: '610', sign: -1 },
  ] },
} as const;
