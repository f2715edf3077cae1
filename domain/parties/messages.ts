/**
 * Localized messages (en, es, fr, de) of the party, shared-settings and product business errors. {kind}
 * and {entity} read in the message's language (api/i18n-reasons.ts NAMED_VALUES); `[...]` shows only
 * when its parameters are given.
 */
import { Errors } from '../errors.ts';
import type { ErrorMessages } from '../messages.ts';

export const PARTY_MESSAGES: ErrorMessages = {
  [Errors.partyInUse]: { en: 'The {kind} {code} is used by accounting entries or documents and cannot be deleted; disable it instead.', es: 'El {kind} {code} se usa en asientos o documentos y no se puede eliminar; desactívelo.', fr: 'Le {kind} {code} est utilisé par des écritures ou des documents et ne peut être supprimé ; désactivez-le.', de: 'Der {kind} {code} wird in Buchungen oder Belegen verwendet und kann nicht gelöscht werden; deaktivieren Sie ihn stattdessen.' },
  [Errors.partyNotFound]: { en: 'Unknown {kind} {id}.', es: 'No existe el {kind} {id}.', fr: "Le {kind} {id} n'existe pas.", de: 'Unbekannter {kind} {id}.' },
  [Errors.partyCodeAlreadyExists]: { en: 'A customer, supplier or employee with code {code} already exists.', es: 'Ya existe un cliente, proveedor o empleado con el código {code}.', fr: 'Un client, fournisseur ou salarié de code {code} existe déjà.', de: 'Ein Kunde, Lieferant oder Mitarbeiter mit der Nummer {code} existiert bereits.' },
  [Errors.partyGdprApplied]: { en: 'The personal data of [{kind} ]{code}{id} has been erased (GDPR) and cannot be set again.', es: 'Los datos personales ([{kind} ]{code}{id}) se han suprimido (RGPD) y no se pueden volver a informar.', fr: 'Les données personnelles ([{kind} ]{code}{id}) ont été effacées (RGPD) et ne peuvent être ressaisies.', de: 'Die personenbezogenen Daten ([{kind} ]{code}{id}) wurden gelöscht (DSGVO) und können nicht erneut erfasst werden.' },
  [Errors.invalidVatNumber]: { en: '{value} is not a valid VAT number for {country}.', es: '{value} no es un NIF-IVA válido para {country}.', fr: "{value} n'est pas un numéro de TVA valide pour {country}.", de: '{value} ist keine gültige USt-IdNr. für {country}.' },
  [Errors.invalidIban]: { en: '{value} is not a valid IBAN.', es: '{value} no es un IBAN válido.', fr: "{value} n'est pas un IBAN valide.", de: '{value} ist keine gültige IBAN.' },
  [Errors.invalidBic]: { en: '{value} is not a valid BIC.', es: '{value} no es un BIC válido.', fr: "{value} n'est pas un BIC valide.", de: '{value} ist kein gültiger BIC.' },
  [Errors.invalidEmail]: { en: '{value} is not a valid e-mail address ({field}).', es: '{value} no es un correo electrónico válido ({field}).', fr: "{value} n'est pas une adresse e-mail valide ({field}).", de: '{value} ist keine gültige E-Mail-Adresse ({field}).' },
  [Errors.invalidPhone]: { en: '{value} is not a valid phone number ({field}).', es: '{value} no es un teléfono válido ({field}).', fr: "{value} n'est pas un numéro de téléphone valide ({field}).", de: '{value} ist keine gültige Telefonnummer ({field}).' },
  [Errors.invalidCountry]: { en: '{value} is not a known country code ({field}).', es: '{value} no es un código de país conocido ({field}).', fr: "{value} n'est pas un code pays connu ({field}).", de: '{value} ist kein bekannter Ländercode ({field}).' },
  [Errors.moreThanOneDefault]: { en: 'At most one item may be marked {field}.', es: 'Solo un elemento puede marcarse como {field}.', fr: 'Un seul élément peut être marqué {field}.', de: 'Höchstens ein Eintrag darf als {field} markiert sein.' },
  [Errors.invalidPaymentTermLines]: { en: 'Invalid payment term lines ({field}): {reason}.', es: 'Vencimientos no válidos ({field}): {reason}.', fr: 'Échéances invalides ({field}) : {reason}.', de: 'Ungültige Zahlungsbedingungen ({field}): {reason}.' },
  [Errors.settingNotFound]: { en: 'Unknown {entity} {id}[ ({field})].', es: 'No existe {entity} {id}[ ({field})].', fr: 'Introuvable : {entity} {id}[ ({field})].', de: 'Unbekannt: {entity} {id}[ ({field})].' },
  [Errors.settingAlreadyExists]: { en: 'A {entity} {name}{code} already exists.', es: 'Ya existe {entity} {name}{code}.', fr: 'Existe déjà : {entity} {name}{code}.', de: 'Existiert bereits: {entity} {name}{code}.' },
  [Errors.settingInUse]: { en: 'The {entity} {name} is in use and cannot be deleted.', es: 'No se puede eliminar {entity} {name}: está en uso.', fr: "Suppression impossible, en cours d'utilisation : {entity} {name}.", de: 'Kann nicht gelöscht werden, da in Verwendung: {entity} {name}.' },
  [Errors.productCodeAlreadyExists]: { en: 'A product with code {code} already exists.', es: 'Ya existe un producto con el código {code}.', fr: 'Un produit de code {code} existe déjà.', de: 'Ein Artikel mit der Nummer {code} existiert bereits.' },
  [Errors.productNotFound]: { en: 'Unknown product {id}.', es: 'Producto desconocido {id}.', fr: 'Produit inconnu {id}.', de: 'Unbekannter Artikel {id}.' },
  [Errors.invalidProduct]: { en: 'Invalid product ({field}): {reason}.', es: 'Producto no válido ({field}): {reason}.', fr: 'Produit invalide ({field}) : {reason}.', de: 'Ungültiger Artikel ({field}): {reason}.' },
};
