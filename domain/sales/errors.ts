/** The sales documents' business errors, with their messages in every language. */
import type { Messages } from '../messages.ts';

export const SalesErrors = {
  documentNotFound: 'sales.businessErrors.salesDocumentNotFound',
  customerRequired: 'sales.businessErrors.customerRequired',
  customerNotFound: 'sales.businessErrors.customerNotFound',
  customerBlocked: 'sales.businessErrors.customerBlocked',
  customerDisabled: 'sales.businessErrors.customerDisabled',
  productBlocked: 'sales.businessErrors.productBlocked',
  lineNotFound: 'sales.businessErrors.salesLineNotFound',
  invalidLine: 'sales.businessErrors.invalidSalesLine',
  conversionNotAllowed: 'sales.businessErrors.conversionNotAllowed',
  originNotPending: 'sales.businessErrors.originNotPending',
  originOtherCustomer: 'sales.businessErrors.originOtherCustomer',
  documentNotPending: 'sales.businessErrors.documentNotPending',
  documentHasFollowers: 'sales.businessErrors.documentHasFollowers',
  statusNotAllowed: 'sales.businessErrors.statusNotAllowed',
  alreadyLinked: 'sales.businessErrors.alreadyLinked',
  currencyUnknown: 'sales.businessErrors.currencyUnknown',
  invoiceNotPending: 'sales.businessErrors.invoiceNotPending',
  invoiceWithoutLines: 'sales.businessErrors.invoiceWithoutLines',
  invoiceNotCreditable: 'sales.businessErrors.invoiceNotCreditable',
  invoiceTypeNotCreditable: 'sales.businessErrors.invoiceTypeNotCreditable',
  productNotOnInvoice: 'sales.businessErrors.productNotOnInvoice',
  creditExceedsInvoiced: 'sales.businessErrors.creditExceedsInvoiced',
  nothingToCredit: 'sales.businessErrors.nothingToCredit',
} as const;

type Code = (typeof SalesErrors)[keyof typeof SalesErrors];

export const SALES_MESSAGES: Record<Code, Messages> = {
  [SalesErrors.documentNotFound]: { en: 'Unknown sales document {id}.', es: 'Documento de venta desconocido {id}.', fr: 'Document de vente inconnu {id}.', de: 'Unbekannter Verkaufsbeleg {id}.' },
  [SalesErrors.customerRequired]: { en: 'A customer is required on this document.', es: 'Este documento requiere un cliente.', fr: 'Ce document exige un client.', de: 'Dieser Beleg erfordert einen Kunden.' },
  [SalesErrors.customerNotFound]: { en: 'Unknown customer {id}.', es: 'Cliente desconocido {id}.', fr: 'Client inconnu {id}.', de: 'Unbekannter Kunde {id}.' },
  [SalesErrors.customerBlocked]: { en: 'The customer {code} is blocked for {kind}.', es: 'El cliente {code} está bloqueado para {kind}.', fr: 'Le client {code} est bloqué pour {kind}.', de: 'Der Kunde {code} ist für {kind} gesperrt.' },
  [SalesErrors.customerDisabled]: { en: 'The customer {code} is disabled.', es: 'El cliente {code} está dado de baja.', fr: 'Le client {code} est désactivé.', de: 'Der Kunde {code} ist deaktiviert.' },
  [SalesErrors.productBlocked]: { en: 'The product {code} cannot be sold on {kind} (line {line}).', es: 'El producto {code} no se puede vender en {kind} (línea {line}).', fr: 'Le produit {code} ne peut être vendu sur {kind} (ligne {line}).', de: 'Der Artikel {code} kann auf {kind} nicht verkauft werden (Zeile {line}).' },
  [SalesErrors.lineNotFound]: { en: 'Unknown line {id} on document {documentId}.', es: 'Línea desconocida {id} en el documento {documentId}.', fr: 'Ligne inconnue {id} sur le document {documentId}.', de: 'Unbekannte Zeile {id} im Beleg {documentId}.' },
  [SalesErrors.invalidLine]: { en: 'Invalid line {line} ({field}): {reason}.', es: 'Línea {line} no válida ({field}): {reason}.', fr: 'Ligne {line} invalide ({field}) : {reason}.', de: 'Ungültige Zeile {line} ({field}): {reason}.' },
  [SalesErrors.conversionNotAllowed]: { en: 'A {kind} cannot come from a {originKind}.', es: 'Un {kind} no puede proceder de un {originKind}.', fr: 'Un {kind} ne peut provenir d\'un {originKind}.', de: 'Ein {kind} kann nicht aus einem {originKind} entstehen.' },
  [SalesErrors.originNotPending]: { en: 'The document {id} is {status}: only a Pending document can be converted.', es: 'El documento {id} está {status}: solo se puede transformar un documento pendiente.', fr: 'Le document {id} est {status} : seul un document en attente peut être transformé.', de: 'Der Beleg {id} ist {status}: nur ein offener Beleg kann übernommen werden.' },
  [SalesErrors.originOtherCustomer]: { en: 'The document {id} is another customer\'s.', es: 'El documento {id} es de otro cliente.', fr: 'Le document {id} est celui d\'un autre client.', de: 'Der Beleg {id} gehört einem anderen Kunden.' },
  [SalesErrors.documentNotPending]: { en: 'The document {id} is {status}: only a Pending document can be changed or deleted.', es: 'El documento {id} está {status}: solo se puede modificar o eliminar un documento pendiente.', fr: 'Le document {id} est {status} : seul un document en attente peut être modifié ou supprimé.', de: 'Der Beleg {id} ist {status}: nur ein offener Beleg kann geändert oder gelöscht werden.' },
  [SalesErrors.documentHasFollowers]: { en: 'The document {id} has documents after it and cannot be deleted.', es: 'El documento {id} tiene documentos posteriores y no se puede eliminar.', fr: 'Le document {id} a des documents après lui et ne peut être supprimé.', de: 'Der Beleg {id} hat Folgebelege und kann nicht gelöscht werden.' },
  [SalesErrors.statusNotAllowed]: { en: 'A {kind} cannot go from {status} to {requested}.', es: 'Un {kind} no puede pasar de {status} a {requested}.', fr: 'Un {kind} ne peut passer de {status} à {requested}.', de: 'Ein {kind} kann nicht von {status} zu {requested} wechseln.' },
  [SalesErrors.alreadyLinked]: { en: 'The document {id} already follows {originId}.', es: 'El documento {id} ya procede de {originId}.', fr: 'Le document {id} suit déjà {originId}.', de: 'Der Beleg {id} folgt bereits {originId}.' },
  [SalesErrors.currencyUnknown]: { en: 'Unknown currency {currency}, or no exchange rate for it.', es: 'Moneda desconocida {currency}, o sin tipo de cambio.', fr: 'Devise inconnue {currency}, ou sans taux de change.', de: 'Unbekannte Währung {currency} oder ohne Wechselkurs.' },
  [SalesErrors.invoiceNotPending]: { en: 'The invoice {id} is {status}: only a Pending invoice can be closed.', es: 'La factura {id} está {status}: solo se puede cerrar una factura pendiente.', fr: 'La facture {id} est {status} : seule une facture en attente peut être clôturée.', de: 'Die Rechnung {id} ist {status}: nur eine offene Rechnung kann abgeschlossen werden.' },
  [SalesErrors.invoiceWithoutLines]: { en: 'The invoice {id} has no lines and cannot be closed.', es: 'La factura {id} no tiene líneas y no se puede cerrar.', fr: 'La facture {id} n\'a aucune ligne et ne peut être clôturée.', de: 'Die Rechnung {id} hat keine Zeilen und kann nicht abgeschlossen werden.' },
  [SalesErrors.invoiceNotCreditable]: { en: 'The invoice {id} is {status}: only a Closed or Posted invoice can be credited.', es: 'La factura {id} está {status}: solo se puede rectificar una factura cerrada o contabilizada.', fr: 'La facture {id} est {status} : seule une facture clôturée ou comptabilisée peut faire l\'objet d\'un avoir.', de: 'Die Rechnung {id} ist {status}: nur eine abgeschlossene oder gebuchte Rechnung kann gutgeschrieben werden.' },
  [SalesErrors.invoiceTypeNotCreditable]: { en: 'The invoice {id} is of type {type}: only a normal invoice can be credited.', es: 'La factura {id} es de tipo {type}: solo se puede rectificar una factura normal.', fr: 'La facture {id} est de type {type} : seule une facture normale peut faire l\'objet d\'un avoir.', de: 'Die Rechnung {id} ist vom Typ {type}: nur eine normale Rechnung kann gutgeschrieben werden.' },
  [SalesErrors.productNotOnInvoice]: { en: 'The product {productId} is not on the invoice {id}.', es: 'El producto {productId} no figura en la factura {id}.', fr: 'Le produit {productId} ne figure pas sur la facture {id}.', de: 'Der Artikel {productId} steht nicht auf der Rechnung {id}.' },
  [SalesErrors.creditExceedsInvoiced]: { en: 'Cannot credit {requested} of product {productId}: only {available} remain to be credited on the invoice {id}.', es: 'No se pueden abonar {requested} del producto {productId}: solo quedan {available} por abonar en la factura {id}.', fr: 'Impossible de créditer {requested} du produit {productId} : il ne reste que {available} à créditer sur la facture {id}.', de: 'Es können nicht {requested} des Artikels {productId} gutgeschrieben werden: auf der Rechnung {id} sind nur noch {available} gutschreibbar.' },
  [SalesErrors.nothingToCredit]: { en: 'Everything on the invoice {id} is already credited.', es: 'Todo lo de la factura {id} ya está abonado.', fr: 'Tout ce que porte la facture {id} est déjà crédité.', de: 'Alles auf der Rechnung {id} ist bereits gutgeschrieben.' },
};

/** What a document may take of its origins' lines, and what later documents took of its own (issue 18 review). */
export const SalesTakeErrors = {
  quantityExceedsPending: 'sales.businessErrors.quantityExceedsPending',
  lineTakenByLaterDocument: 'sales.businessErrors.lineTakenByLaterDocument',
} as const;

Object.assign(SALES_MESSAGES, {
  [SalesTakeErrors.quantityExceedsPending]: { en: 'Line {line} takes {requested} of line {originLineId} of {originId}, which has {pending} pending.', es: 'La línea {line} toma {requested} de la línea {originLineId} de {originId}, que tiene {pending} pendiente.', fr: 'La ligne {line} prend {requested} de la ligne {originLineId} de {originId}, qui a {pending} en attente.', de: 'Zeile {line} übernimmt {requested} aus Zeile {originLineId} von {originId}, die {pending} offen hat.' },
  [SalesTakeErrors.lineTakenByLaterDocument]: { en: 'Line {id} of {documentId}: later documents took {taken} of it; it cannot be deleted or cut below that.', es: 'Línea {id} de {documentId}: documentos posteriores tomaron {taken}; no se puede eliminar ni reducir por debajo.', fr: 'Ligne {id} de {documentId} : des documents ultérieurs en ont pris {taken} ; elle ne peut être supprimée ni réduite en dessous.', de: 'Zeile {id} von {documentId}: Folgebelege übernahmen {taken}; sie kann nicht gelöscht oder darunter verringert werden.' },
});

/** Posting an invoice and settling its open items (commands/sales/posting.ts, settlement.ts). */
export const SalesPostingErrors = {
  invoiceNotClosed: 'sales.businessErrors.salesInvoiceNotClosed',
  invoiceAlreadyPosted: 'sales.businessErrors.salesInvoiceAlreadyPosted',
  journalNotForSalesInvoices: 'sales.businessErrors.journalTypeNotSalesInvoice',
  openItemNotFound: 'sales.businessErrors.salesOpenItemNotFound',
  openItemTwice: 'sales.businessErrors.salesOpenItemTwice',
  openItemOtherCustomer: 'sales.businessErrors.salesOpenItemOtherCustomer',
  paidAmountNotPositive: 'sales.businessErrors.paidAmountNotPositive',
  beyondOpenAmount: 'sales.businessErrors.paidAmountBeyondOpenAmount',
  paymentMethodNotFound: 'sales.businessErrors.paymentMethodNotFound',
} as const;
Object.assign(SALES_MESSAGES, {
  [SalesPostingErrors.invoiceNotClosed]: { en: 'The invoice {id} is Pending: close it first.', es: 'La factura {id} está pendiente: ciérrela primero.', fr: 'La facture {id} est en attente : clôturez-la d\'abord.', de: 'Die Rechnung {id} ist offen: schließen Sie sie zuerst ab.' },
  [SalesPostingErrors.invoiceAlreadyPosted]: { en: 'The invoice {id} is already posted ({status}).', es: 'La factura {id} ya está contabilizada ({status}).', fr: 'La facture {id} est déjà comptabilisée ({status}).', de: 'Die Rechnung {id} ist bereits gebucht ({status}).' },
  [SalesPostingErrors.journalNotForSalesInvoices]: { en: 'The journal type {code} is of type {type}: an invoice posts to a SALES_INVOICE journal.', es: 'El diario {code} es de tipo {type}: una factura se contabiliza en un diario SALES_INVOICE.', fr: 'Le journal {code} est de type {type} : une facture se comptabilise dans un journal SALES_INVOICE.', de: 'Das Journal {code} hat den Typ {type}: eine Rechnung wird in ein SALES_INVOICE-Journal gebucht.' },
  [SalesPostingErrors.openItemNotFound]: { en: 'Unknown open item {id}.', es: 'Vencimiento desconocido {id}.', fr: 'Échéance inconnue {id}.', de: 'Unbekannter offener Posten {id}.' },
  [SalesPostingErrors.openItemTwice]: { en: 'The open item {id} is sent twice.', es: 'El vencimiento {id} se envía dos veces.', fr: 'L\'échéance {id} est envoyée deux fois.', de: 'Der offene Posten {id} wird zweimal gesendet.' },
  [SalesPostingErrors.openItemOtherCustomer]: { en: 'The open item {id} is not an invoice of the customer {thirdPartyId}.', es: 'El vencimiento {id} no es de una factura del cliente {thirdPartyId}.', fr: 'L\'échéance {id} n\'est pas celle d\'une facture du client {thirdPartyId}.', de: 'Der offene Posten {id} gehört zu keiner Rechnung des Kunden {thirdPartyId}.' },
  [SalesPostingErrors.paidAmountNotPositive]: { en: 'The amount paid of open item {id} must be more than zero (got {paidAmount}).', es: 'El importe pagado del vencimiento {id} debe ser mayor que cero ({paidAmount}).', fr: 'Le montant payé de l\'échéance {id} doit être supérieur à zéro ({paidAmount}).', de: 'Der gezahlte Betrag des offenen Postens {id} muss größer als null sein ({paidAmount}).' },
  [SalesPostingErrors.beyondOpenAmount]: { en: 'The amount paid of open item {id} ({paidAmount}) is beyond the open amount ({open}).', es: 'El importe pagado del vencimiento {id} ({paidAmount}) supera el importe pendiente ({open}).', fr: 'Le montant payé de l\'échéance {id} ({paidAmount}) dépasse le montant restant dû ({open}).', de: 'Der gezahlte Betrag des offenen Postens {id} ({paidAmount}) übersteigt den offenen Betrag ({open}).' },
  [SalesPostingErrors.paymentMethodNotFound]: { en: 'Unknown payment method {id}.', es: 'Forma de cobro desconocida {id}.', fr: 'Mode de règlement inconnu {id}.', de: 'Unbekannte Zahlungsmethode {id}.' },
});

/** What a posted document keeps standing (commands/sales/posting-entry-guard.ts). */
export const SalesGuardErrors = {
  postingEntryNotDeletable: 'sales.businessErrors.salesInvoiceEntryNotDeletable',
} as const;
Object.assign(SALES_MESSAGES, {
  [SalesGuardErrors.postingEntryNotDeletable]: { en: 'The accounting entry {id} posted the sales invoice {number} and cannot be deleted; credit the invoice instead.', es: 'El asiento {id} contabilizó la factura de venta {number} y no se puede eliminar; emita una factura rectificativa.', fr: 'L\'écriture {id} a comptabilisé la facture de vente {number} et ne peut être supprimée ; établissez un avoir à la place.', de: 'Die Buchung {id} hat die Ausgangsrechnung {number} gebucht und kann nicht gelöscht werden; erstellen Sie stattdessen eine Gutschrift.' },
});

/** Credit notes credit no more money than was invoiced; invoices are numbered in date order (issue 18 review). */
export const SalesLifecycleErrors = {
  creditPriceAboveInvoiced: 'sales.businessErrors.creditPriceAboveInvoiced',
  creditAmountExceedsInvoiced: 'sales.businessErrors.creditAmountExceedsInvoiced',
  invoiceDateBeforeLastClosed: 'sales.businessErrors.invoiceDateBeforeLastClosed',
  creditNoteDateBeforeInvoice: 'sales.businessErrors.creditNoteDateBeforeInvoice',
} as const;
Object.assign(SALES_MESSAGES, {
  [SalesLifecycleErrors.creditPriceAboveInvoiced]: { en: 'Line {line}: the credited price {unitPrice} is above the price invoiced on the invoice {id} ({invoicedPrice}).', es: 'Línea {line}: el precio abonado {unitPrice} supera el precio facturado en la factura {id} ({invoicedPrice}).', fr: 'Ligne {line} : le prix crédité {unitPrice} dépasse le prix facturé sur la facture {id} ({invoicedPrice}).', de: 'Zeile {line}: der gutgeschriebene Preis {unitPrice} liegt über dem auf der Rechnung {id} berechneten Preis ({invoicedPrice}).' },
  [SalesLifecycleErrors.creditAmountExceedsInvoiced]: { en: 'Cannot credit {requested} of product {productId}: only {available} of its net remain to be credited on the invoice {id}.', es: 'No se pueden abonar {requested} del producto {productId}: solo quedan {available} de su base por abonar en la factura {id}.', fr: 'Impossible de créditer {requested} du produit {productId} : il ne reste que {available} de son montant net à créditer sur la facture {id}.', de: '{requested} des Produkts {productId} können nicht gutgeschrieben werden: auf der Rechnung {id} sind nur noch {available} seines Nettobetrags gutschreibbar.' },
  [SalesLifecycleErrors.invoiceDateBeforeLastClosed]: { en: 'The invoice {id} is dated {documentDate}, before {lastDate}, the date of {lastNumber}, the last closed in its series: invoices are numbered in date order.', es: 'La factura {id} tiene fecha {documentDate}, anterior a {lastDate}, la de {lastNumber}, la última cerrada de su serie: las facturas se numeran en orden de fecha.', fr: 'La facture {id} est datée du {documentDate}, avant le {lastDate}, date de {lastNumber}, la dernière clôturée de sa série : les factures sont numérotées dans l\'ordre chronologique.', de: 'Die Rechnung {id} ist auf {documentDate} datiert, vor {lastDate}, dem Datum von {lastNumber}, der zuletzt abgeschlossenen ihrer Serie: Rechnungen werden in Datumsreihenfolge nummeriert.' },
  [SalesLifecycleErrors.creditNoteDateBeforeInvoice]: { en: 'The credit note cannot be dated {documentDate}, before the invoice {id} it credits ({invoiceDate}).', es: 'La factura rectificativa no puede tener fecha {documentDate}, anterior a la factura {id} que rectifica ({invoiceDate}).', fr: 'L\'avoir ne peut être daté du {documentDate}, avant la facture {id} qu\'il rectifie ({invoiceDate}).', de: 'Die Gutschrift kann nicht auf {documentDate} datiert werden, vor der Rechnung {id}, die sie berichtigt ({invoiceDate}).' },
});

/** A line's tax where the organisation sets its own rates (US/CA sales tax): none is set. */
export const SalesTaxErrors = {
  salesTaxRateNotSet: 'sales.businessErrors.salesTaxRateNotSet',
} as const;
Object.assign(SALES_MESSAGES, {
  [SalesTaxErrors.salesTaxRateNotSet]: {
    en: 'No sales tax rate is set for the organisation ({country}): set its sales tax rate before it sells, as a line cannot be taxed without one.',
    es: 'La organización ({country}) no tiene definido ningún tipo de impuesto sobre ventas: defínalo antes de vender, una línea no puede tributar sin él.',
    fr: 'Aucun taux de taxe de vente n\'est défini pour l\'organisation ({country}) : définissez-le avant de vendre, une ligne ne peut être taxée sans lui.',
    de: 'Für die Organisation ({country}) ist kein Umsatzsteuersatz festgelegt: legen Sie ihn vor dem Verkauf fest, ohne ihn kann keine Zeile besteuert werden.',
  },
});

/** Every code of the area, whichever group declared it (the i18n test walks them). */
export const ALL_SALES_ERRORS = { ...SalesErrors, ...SalesTakeErrors, ...SalesPostingErrors, ...SalesGuardErrors, ...SalesLifecycleErrors, ...SalesTaxErrors } as const;
