/**
 * Spanish SII invoice types (TipoFactura / "clave de tipo de factura", AEAT SII L2_EMI / L2_RECI).
 *
 * registerType is the libro registro a type primarily belongs to. F1-F4 and R1-R5 are valid in both
 * the issued and received registers; they are listed under ISSUED. F5 (imports, DUA), F6 (other
 * accounting vouchers) and LC (customs complementary settlement) exist only for received invoices.
 */
export const RegisterType = ['ISSUED', 'RECEIVED', 'INVESTMENT_GOODS', 'INTRA_COMMUNITY'] as const;
export type RegisterType = (typeof RegisterType)[number];

export interface InvoiceTypeRef {
  invoiceTypesCode: string;
  description: string;
  isAmendInvoice: boolean;
  registerType: RegisterType;
  siiCode: string | null;
}

type Row = readonly [code: string, description: string, registerType: RegisterType];

const ROWS: readonly Row[] = [
  ['F1', 'Factura (art. 6, 7.2 y 7.3 del RD 1619/2012)', 'ISSUED'],
  ['F2', 'Factura simplificada y facturas sin identificación del destinatario (art. 6.1.d) RD 1619/2012)', 'ISSUED'],
  ['F3', 'Factura emitida en sustitución de facturas simplificadas facturadas y declaradas', 'ISSUED'],
  ['F4', 'Asiento resumen de facturas', 'ISSUED'],
  ['F5', 'Importaciones (DUA)', 'RECEIVED'],
  ['F6', 'Justificantes contables', 'RECEIVED'],
  ['R1', 'Factura rectificativa (error fundado en derecho y art. 80 Uno, Dos y Seis LIVA)', 'ISSUED'],
  ['R2', 'Factura rectificativa (art. 80.3 LIVA, concurso de acreedores)', 'ISSUED'],
  ['R3', 'Factura rectificativa (art. 80.4 LIVA, créditos incobrables)', 'ISSUED'],
  ['R4', 'Factura rectificativa (resto)', 'ISSUED'],
  ['R5', 'Factura rectificativa en facturas simplificadas', 'ISSUED'],
  ['LC', 'Aduanas - Liquidación complementaria', 'RECEIVED'],
];

export const INVOICE_TYPES: readonly InvoiceTypeRef[] = Object.freeze(
  ROWS.map(([code, description, registerType]) =>
    Object.freeze({
      invoiceTypesCode: code,
      description,
      isAmendInvoice: code.startsWith('R'),
      registerType,
      siiCode: code,
    }),
  ),
);
