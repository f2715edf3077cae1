/** The taxes' business errors, with their messages in every language. */
import type { Messages } from '../messages.ts';

export const TaxErrors = {
  taxTreatmentNotFound: 'sales.businessErrors.taxTreatmentNotFound',
  invalidTaxLine: 'sales.businessErrors.invalidTaxLine',
  tooManyDocumentLines: 'sales.businessErrors.tooManyDocumentLines',
  withholdingNotAllowed: 'sales.businessErrors.withholdingNotAllowed',
  documentTotalTooLarge: 'sales.businessErrors.documentTotalTooLarge',
  roundingNotAllowed: 'sales.businessErrors.roundingNotAllowed',
  taxTreatmentOfAnotherCountry: 'sales.businessErrors.taxTreatmentOfAnotherCountry',
  taxSystemsMixed: 'sales.businessErrors.taxSystemsMixed',
  invalidSalesTaxRate: 'sales.businessErrors.invalidSalesTaxRate',
  taxCodeWithTwoRates: 'sales.businessErrors.taxCodeWithTwoRates',
  taxGroupNotFound: 'sales.businessErrors.taxGroupNotFound',
  taxesAreTheCountrys: 'taxes.businessErrors.taxesAreTheCountrys',
  salesTaxRateCodeTaken: 'taxes.businessErrors.salesTaxRateCodeTaken',
  salesTaxRateNotFound: 'taxes.businessErrors.salesTaxRateNotFound',
  salesTaxRateInUse: 'taxes.businessErrors.salesTaxRateInUse',
  salesTaxRateChangeTooEarly: 'taxes.businessErrors.salesTaxRateChangeTooEarly',
  salesTaxDefaultRequired: 'taxes.businessErrors.salesTaxDefaultRequired',
  salesTaxTypeNotSpecified: 'taxes.businessErrors.salesTaxTypeNotSpecified',
} as const;

export const TAX_MESSAGES: Record<(typeof TaxErrors)[keyof typeof TaxErrors], Messages> = {
  [TaxErrors.taxTreatmentNotFound]: { en: 'Unknown tax treatment {code} for country {country}.', es: 'Tratamiento fiscal desconocido {code} para el país {country}.', fr: 'Traitement fiscal inconnu {code} pour le pays {country}.', de: 'Unbekannte Steuerbehandlung {code} für das Land {country}.' },
  [TaxErrors.invalidTaxLine]: { en: 'Invalid line {line} ({field}): {reason}.', es: 'Línea {line} no válida ({field}): {reason}.', fr: 'Ligne {line} invalide ({field}) : {reason}.', de: 'Ungültige Zeile {line} ({field}): {reason}.' },
  [TaxErrors.tooManyDocumentLines]: { en: 'A document holds at most {max} lines.', es: 'Un documento tiene como máximo {max} líneas.', fr: 'Un document comporte au plus {max} lignes.', de: 'Ein Beleg hat höchstens {max} Zeilen.' },
  [TaxErrors.withholdingNotAllowed]: { en: 'Withholding of {percentage} % is not a rate of country {country}.', es: 'La retención del {percentage} % no es un tipo del país {country}.', fr: 'La retenue de {percentage} % n\'est pas un taux du pays {country}.', de: 'Ein Steuerabzug von {percentage} % ist kein Satz des Landes {country}.' },
  [TaxErrors.documentTotalTooLarge]: { en: 'The document\'s {field} {total} exceeds {max}.', es: 'El importe {field} del documento ({total}) supera {max}.', fr: 'Le montant {field} du document ({total}) dépasse {max}.', de: 'Der Betrag {field} des Belegs ({total}) übersteigt {max}.' },
  [TaxErrors.roundingNotAllowed]: { en: 'Rounding {mode} at {level} level is not allowed in country {country}.', es: 'El redondeo {mode} a nivel {level} no está permitido en el país {country}.', fr: 'L\'arrondi {mode} au niveau {level} n\'est pas autorisé dans le pays {country}.', de: 'Rundung {mode} auf Ebene {level} ist im Land {country} nicht zulässig.' },
  [TaxErrors.taxTreatmentOfAnotherCountry]: { en: 'Line {line}: tax treatment {code} is of country {treatmentCountry}, not of the document\'s country {country}.', es: 'Línea {line}: el tratamiento fiscal {code} es del país {treatmentCountry}, no del país del documento {country}.', fr: 'Ligne {line} : le traitement fiscal {code} est du pays {treatmentCountry}, pas du pays du document {country}.', de: 'Zeile {line}: Die Steuerbehandlung {code} gehört zum Land {treatmentCountry}, nicht zum Land des Belegs {country}.' },
  [TaxErrors.taxSystemsMixed]: { en: 'Line {line}: a document is taxed under one system; {taxType} cannot join {otherTaxType}.', es: 'Línea {line}: un documento tributa en un solo impuesto; {taxType} no puede mezclarse con {otherTaxType}.', fr: 'Ligne {line} : un document relève d\'un seul impôt ; {taxType} ne peut se mêler à {otherTaxType}.', de: 'Zeile {line}: Ein Beleg unterliegt einer Steuer; {taxType} kann nicht mit {otherTaxType} gemischt werden.' },
  [TaxErrors.invalidSalesTaxRate]: { en: 'Sales tax rate {code}: {percentage} is not a percentage from 0 to 100 with at most 4 decimals.', es: 'Tipo de impuesto sobre ventas {code}: {percentage} no es un porcentaje de 0 a 100 con 4 decimales como máximo.', fr: 'Taux de taxe de vente {code} : {percentage} n\'est pas un pourcentage de 0 à 100 avec au plus 4 décimales.', de: 'Umsatzsteuersatz {code}: {percentage} ist kein Prozentsatz von 0 bis 100 mit höchstens 4 Dezimalstellen.' },
  [TaxErrors.taxCodeWithTwoRates]: { en: 'Line {line}: tax treatment {code} is used with two rates ({percentage} % and {otherPercentage} %).', es: 'Línea {line}: el tratamiento fiscal {code} se usa con dos tipos ({percentage} % y {otherPercentage} %).', fr: 'Ligne {line} : le traitement fiscal {code} est utilisé avec deux taux ({percentage} % et {otherPercentage} %).', de: 'Zeile {line}: Die Steuerbehandlung {code} wird mit zwei Sätzen verwendet ({percentage} % und {otherPercentage} %).' },
  [TaxErrors.taxGroupNotFound]: { en: 'Unknown tax group {id} ({field}): not a tax group of the organisation.', es: 'Grupo de impuestos desconocido {id} ({field}): no es un grupo de impuestos de la organización.', fr: 'Groupe de taxes inconnu {id} ({field}) : ce n\'est pas un groupe de taxes de l\'organisation.', de: 'Unbekannte Steuergruppe {id} ({field}): keine Steuergruppe der Organisation.' },
  [TaxErrors.taxesAreTheCountrys]: { en: 'The taxes of country {country} are the country\'s: an organisation sets no rate of its own.', es: 'Los impuestos del país {country} son los del país: una organización no fija tipos propios.', fr: 'Les taxes du pays {country} sont celles du pays : une organisation ne fixe pas ses propres taux.', de: 'Die Steuern des Landes {country} sind die des Landes: Eine Organisation legt keine eigenen Sätze fest.' },
  [TaxErrors.salesTaxRateCodeTaken]: { en: 'A sales tax rate with code {code} already exists.', es: 'Ya existe un tipo de impuesto sobre ventas con el código {code}.', fr: 'Un taux de taxe de vente de code {code} existe déjà.', de: 'Ein Umsatzsteuersatz mit dem Code {code} existiert bereits.' },
  [TaxErrors.salesTaxRateNotFound]: { en: 'Unknown sales tax rate {id}.', es: 'Tipo de impuesto sobre ventas desconocido {id}.', fr: 'Taux de taxe de vente inconnu {id}.', de: 'Unbekannter Umsatzsteuersatz {id}.' },
  [TaxErrors.salesTaxRateInUse]: { en: 'Sales tax rate {code} is used by a document and cannot be deleted.', es: 'El tipo de impuesto sobre ventas {code} lo usa un documento y no se puede eliminar.', fr: 'Le taux de taxe de vente {code} est utilisé par un document et ne peut pas être supprimé.', de: 'Der Umsatzsteuersatz {code} wird von einem Beleg verwendet und kann nicht gelöscht werden.' },
  [TaxErrors.salesTaxRateChangeTooEarly]: { en: 'Sales tax rate {code} can change only from a date after {date}, not from {validFrom}.', es: 'El tipo de impuesto sobre ventas {code} solo puede cambiar desde una fecha posterior al {date}, no desde el {validFrom}.', fr: 'Le taux de taxe de vente {code} ne peut changer qu\'à partir d\'une date postérieure au {date}, pas à partir du {validFrom}.', de: 'Der Umsatzsteuersatz {code} kann sich erst ab einem Datum nach dem {date} ändern, nicht ab dem {validFrom}.' },
  [TaxErrors.salesTaxDefaultRequired]: { en: 'Sales tax rate {code} is the default: make another rate the default first.', es: 'El tipo de impuesto sobre ventas {code} es el predeterminado: primero haga predeterminado otro tipo.', fr: 'Le taux de taxe de vente {code} est le taux par défaut : définissez d\'abord un autre taux par défaut.', de: 'Der Umsatzsteuersatz {code} ist der Standardsatz: Legen Sie zuerst einen anderen Satz als Standard fest.' },
  [TaxErrors.salesTaxTypeNotSpecified]: { en: 'A sales tax rate\'s tax type is NOT_SPECIFIED, not {taxType}.', es: 'El tipo de impuesto de un impuesto sobre ventas es NOT_SPECIFIED, no {taxType}.', fr: 'Le type d\'impôt d\'un taux de taxe de vente est NOT_SPECIFIED, pas {taxType}.', de: 'Die Steuerart eines Umsatzsteuersatzes ist NOT_SPECIFIED, nicht {taxType}.' },
};
