/**
 * Localized (en, es, fr, de) reasons an input is refused (the `reason` parameter, domain/errors.ts
 * Reasons) and the names of the kinds of party and shared setting that messages name.
 */
import { Reasons } from '../domain/errors.ts';
import type { Messages } from './i18n.ts';

export const REASON_MESSAGES: Record<keyof typeof Reasons, Messages> = {
  required: { en: 'a value is required', es: 'es obligatorio', fr: 'une valeur est obligatoire', de: 'ein Wert ist erforderlich' },
  expectedType: { en: 'a value of type {expected} is expected', es: 'se espera un valor de tipo {expected}', fr: 'une valeur de type {expected} est attendue', de: 'erwartet wird ein Wert vom Typ {expected}' },
  empty: { en: 'must not be empty', es: 'no puede estar vacío', fr: 'ne peut pas être vide', de: 'darf nicht leer sein' },
  tooShort: { en: 'at least {minimum} characters', es: 'al menos {minimum} caracteres', fr: 'au moins {minimum} caractères', de: 'mindestens {minimum} Zeichen' },
  tooLong: { en: 'at most {maximum} characters', es: 'como máximo {maximum} caracteres', fr: 'au plus {maximum} caractères', de: 'höchstens {maximum} Zeichen' },
  tooFewItems: { en: 'at least {minimum} items', es: 'al menos {minimum} elementos', fr: 'au moins {minimum} éléments', de: 'mindestens {minimum} Einträge' },
  tooManyItems: { en: 'at most {maximum} items', es: 'como máximo {maximum} elementos', fr: 'au plus {maximum} éléments', de: 'höchstens {maximum} Einträge' },
  tooSmall: { en: 'at least {minimum}', es: 'como mínimo {minimum}', fr: 'au moins {minimum}', de: 'mindestens {minimum}' },
  tooBig: { en: 'at most {maximum}', es: 'como máximo {maximum}', fr: 'au plus {maximum}', de: 'höchstens {maximum}' },
  notInteger: { en: 'a whole number is expected', es: 'se espera un número entero', fr: 'un nombre entier est attendu', de: 'erwartet wird eine ganze Zahl' },
  notUuid: { en: 'not a UUID', es: 'no es un UUID', fr: "ce n'est pas un UUID", de: 'keine UUID' },
  badFormat: { en: 'not a valid {format}', es: 'no es un {format} válido', fr: "ce n'est pas un {format} valide", de: 'kein gültiges Format ({format})' },
  notOneOf: { en: 'expected one of {values}', es: 'se espera uno de estos valores: {values}', fr: 'valeurs possibles : {values}', de: 'erwartet wird einer dieser Werte: {values}' },
  unknownFields: { en: 'unknown fields {keys}', es: 'campos desconocidos {keys}', fr: 'champs inconnus {keys}', de: 'unbekannte Felder {keys}' },
  notDate: {
    en: 'an ISO 8601 date (2026-03-01) or date-time with a zone (2026-03-01T10:00:00Z, 2026-03-01T10:00:00+01:00) is expected',
    es: 'se espera una fecha ISO 8601 (2026-03-01) o una fecha y hora con zona (2026-03-01T10:00:00Z, 2026-03-01T10:00:00+01:00)',
    fr: 'une date ISO 8601 (2026-03-01) ou une date et heure avec fuseau (2026-03-01T10:00:00Z, 2026-03-01T10:00:00+01:00) est attendue',
    de: 'erwartet wird ein ISO-8601-Datum (2026-03-01) oder ein Zeitpunkt mit Zone (2026-03-01T10:00:00Z, 2026-03-01T10:00:00+01:00)',
  },
  nulCharacter: { en: 'contains a NUL character', es: 'contiene un carácter NUL', fr: 'contient un caractère NUL', de: 'enthält ein NUL-Zeichen' },
  illFormedUnicode: { en: 'contains ill-formed Unicode (a lone surrogate)', es: 'contiene Unicode mal formado (un sustituto aislado)', fr: 'contient de l\'Unicode mal formé (un demi-substitut isolé)', de: 'enthält fehlerhaftes Unicode (ein einzelnes Surrogat)' },
  badValue: { en: 'not a valid value', es: 'no es un valor válido', fr: "ce n'est pas une valeur valide", de: 'kein gültiger Wert' },
  codeFormat: { en: 'letters, digits, dots, underscores and hyphens only, 1 to {maxLength} characters', es: 'solo letras, dígitos, puntos, guiones bajos y guiones, de 1 a {maxLength} caracteres', fr: 'lettres, chiffres, points, tirets bas et tirets uniquement, de 1 à {maxLength} caractères', de: 'nur Buchstaben, Ziffern, Punkte, Unterstriche und Bindestriche, 1 bis {maxLength} Zeichen' },
  tooMany: { en: 'at most {limit} are allowed', es: 'se permiten como máximo {limit}', fr: 'au plus {limit} sont permis', de: 'höchstens {limit} sind erlaubt' },
  httpUrl: { en: 'an http(s) address is expected', es: 'se espera una dirección http(s)', fr: 'une adresse http(s) est attendue', de: 'erwartet wird eine http(s)-Adresse' },
  percentage: { en: 'a percentage from 0 to 100 with at most two decimals', es: 'un porcentaje de 0 a 100 con dos decimales como máximo', fr: 'un pourcentage de 0 à 100 avec au plus deux décimales', de: 'ein Prozentsatz von 0 bis 100 mit höchstens zwei Nachkommastellen' },
  defaultDeliveryAddress: { en: 'only a delivery address can be the default one', es: 'solo una dirección de entrega puede ser la predeterminada', fr: 'seule une adresse de livraison peut être celle par défaut', de: 'nur eine Lieferadresse kann die Standardadresse sein' },
  amountFormat: { en: 'a non-negative amount in plain decimal notation is expected', es: 'se espera un importe no negativo en notación decimal simple', fr: 'un montant positif ou nul en notation décimale simple est attendu', de: 'erwartet wird ein nicht negativer Betrag in einfacher Dezimalschreibweise' },
  amountRange: { en: 'an amount from 0 to 999999999999999 with at most {precision} decimals is expected', es: 'se espera un importe de 0 a 999999999999999 con {precision} decimales como máximo', fr: 'un montant de 0 à 999999999999999 avec au plus {precision} décimales est attendu', de: 'erwartet wird ein Betrag von 0 bis 999999999999999 mit höchstens {precision} Nachkommastellen' },
  oneSide: { en: 'each line needs exactly one positive debit or credit', es: 'cada línea necesita exactamente un debe o un haber positivo', fr: 'chaque ligne doit avoir exactement un débit ou un crédit positif', de: 'jede Zeile braucht genau einen positiven Soll- oder Habenbetrag' },
  mergedTooLarge: { en: 'the lines of one account, third party and side add up to more than the largest amount', es: 'las líneas de una misma cuenta, tercero y lado suman más que el importe máximo', fr: "les lignes d'un même compte, tiers et sens dépassent ensemble le montant maximal", de: 'die Zeilen eines Kontos, Geschäftspartners und einer Seite ergeben zusammen mehr als den Höchstbetrag' },
  termPercentage: { en: 'a percentage above 0 and at most 100, with at most two decimals', es: 'un porcentaje mayor que 0 y como máximo 100, con dos decimales como máximo', fr: 'un pourcentage supérieur à 0 et au plus égal à 100, avec au plus deux décimales', de: 'ein Prozentsatz über 0 und höchstens 100 mit höchstens zwei Nachkommastellen' },
  termDay: { en: 'days run from 0 to {maxDays}', es: 'los días van de 0 a {maxDays}', fr: 'les jours vont de 0 à {maxDays}', de: 'Tage reichen von 0 bis {maxDays}' },
  termPayDays: { en: 'at most {maxPayDays} days of the month, each from 1 to 31', es: 'como máximo {maxPayDays} días del mes, cada uno de 1 a 31', fr: 'au plus {maxPayDays} jours du mois, chacun de 1 à 31', de: 'höchstens {maxPayDays} Tage des Monats, jeder von 1 bis 31' },
  remainderLast: { en: 'only the last line may take the remainder', es: 'solo la última línea puede llevar el resto', fr: 'seule la dernière ligne peut prendre le reste', de: 'nur die letzte Zeile darf den Rest übernehmen' },
  remainderEmpty: { en: 'the other lines already add up to 100%', es: 'las demás líneas ya suman el 100 %', fr: 'les autres lignes font déjà 100 %', de: 'die übrigen Zeilen ergeben bereits 100 %' },
  termTotal: { en: 'the lines add up to {total}%, not 100%', es: 'las líneas suman {total} %, no 100 %', fr: 'les lignes font {total} %, et non 100 %', de: 'die Zeilen ergeben {total} %, nicht 100 %' },
  termNeedsLine: { en: 'a payment term needs at least one line', es: 'una forma de pago necesita al menos una línea', fr: 'une condition de paiement doit avoir au moins une ligne', de: 'eine Zahlungsbedingung braucht mindestens eine Zeile' },
  termOrder: { en: 'each line needs its own order, from 1 to {maxOrder}', es: 'cada línea necesita su propio orden, de 1 a {maxOrder}', fr: 'chaque ligne doit avoir son propre ordre, de 1 à {maxOrder}', de: 'jede Zeile braucht ihre eigene Reihenfolge, von 1 bis {maxOrder}' },
  fixedNeedsRemainder: { en: 'fixed amounts need a last REMAINING_AMOUNT line', es: 'los importes fijos necesitan una última línea REMAINING_AMOUNT', fr: 'les montants fixes exigent une dernière ligne REMAINING_AMOUNT', de: 'feste Beträge erfordern eine letzte Zeile REMAINING_AMOUNT' },
  nonNegativeDecimal: { en: 'a non-negative decimal number is expected', es: 'se espera un número decimal no negativo', fr: 'un nombre décimal positif ou nul est attendu', de: 'erwartet wird eine nicht negative Dezimalzahl' },
  maxDecimals: { en: 'at most {decimals} decimals', es: 'como máximo {decimals} decimales', fr: 'au plus {decimals} décimales', de: 'höchstens {decimals} Nachkommastellen' },
  serviceNoStock: { en: 'services keep no stock', es: 'los servicios no llevan existencias', fr: 'les services ne gèrent pas de stock', de: 'Dienstleistungen führen keinen Bestand' },
  negativeStockNeedsStock: { en: 'only for products whose stock is managed', es: 'solo para artículos con gestión de existencias', fr: 'uniquement pour les articles dont le stock est géré', de: 'nur für Artikel mit Bestandsführung' },
};

/**
 * Parameters whose values are names of things, in the form each language's messages put them: Spanish
 * settings carry their article (their genders differ), French and German ones follow a colon.
 */
export const NAMED_VALUES: Record<string, Record<string, Messages>> = {
  kind: {
    customer: { en: 'customer', es: 'cliente', fr: 'client', de: 'Kunde' },
    supplier: { en: 'supplier', es: 'proveedor', fr: 'fournisseur', de: 'Lieferant' },
    employee: { en: 'employee', es: 'empleado', fr: 'salarié', de: 'Mitarbeiter' },
  },
  entity: {
    businessArea: { en: 'business area', es: 'el área de negocio', fr: "domaine d'activité", de: 'Geschäftsbereich' },
    jobArea: { en: 'job area', es: 'el área funcional', fr: 'fonction', de: 'Tätigkeitsbereich' },
    paymentMean: { en: 'payment mean', es: 'el medio de pago', fr: 'moyen de paiement', de: 'Zahlungsmittel' },
    paymentTerm: { en: 'payment term', es: 'la forma de pago', fr: 'condition de paiement', de: 'Zahlungsbedingung' },
    paymentMethod: { en: 'bank or cash account', es: 'la cuenta de banco o caja', fr: 'compte de banque ou de caisse', de: 'Bank- oder Kassenkonto' },
    documentType: { en: 'document type', es: 'el tipo de documento', fr: 'type de document', de: 'Dokumenttyp' },
  },
};
