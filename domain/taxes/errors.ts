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
};
