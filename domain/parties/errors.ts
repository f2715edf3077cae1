/**
 * The parties' business errors (customers, suppliers, employees, and the checks of their identifiers that
 * shared settings reuse): each code with its message in every language, so a code without its four
 * languages does not compile. {kind} reads in the message's language (api/i18n-reasons.ts NAMED_VALUES);
 * `[...]` shows only when its parameters are given.
 */
import type { Messages } from '../messages.ts';

export const PartyErrors = {
  partyNotFound: 'global.businessErrors.partyNotFound',
  partyCodeAlreadyExists: 'global.businessErrors.partyCodeAlreadyExists',
  partyInUse: 'global.businessErrors.partyInUse',
  partyGdprApplied: 'global.businessErrors.partyGdprApplied',
  invalidVatNumber: 'global.businessErrors.invalidVatNumber',
  invalidIban: 'global.businessErrors.invalidIban',
  invalidBic: 'global.businessErrors.invalidBic',
  invalidEmail: 'global.businessErrors.invalidEmail',
  invalidPhone: 'global.businessErrors.invalidPhone',
  invalidCountry: 'global.businessErrors.invalidCountry',
  moreThanOneDefault: 'global.businessErrors.moreThanOneDefault',
  statusByErasure: 'global.businessErrors.statusByErasure',
  partyItemNotFound: 'global.businessErrors.partyItemNotFound',
  partyCodeUnchangeable: 'global.businessErrors.partyCodeUnchangeable',
} as const;

export const PARTY_MESSAGES: Record<(typeof PartyErrors)[keyof typeof PartyErrors], Messages> = {
  [PartyErrors.partyNotFound]: { en: 'Unknown {kind} {id}.', es: 'No existe el {kind} {id}.', fr: "Le {kind} {id} n'existe pas.", de: 'Unbekannter {kind} {id}.' },
  [PartyErrors.partyCodeAlreadyExists]: { en: 'A customer, supplier or employee with code {code} already exists.', es: 'Ya existe un cliente, proveedor o empleado con el código {code}.', fr: 'Un client, fournisseur ou salarié de code {code} existe déjà.', de: 'Ein Kunde, Lieferant oder Mitarbeiter mit der Nummer {code} existiert bereits.' },
  [PartyErrors.partyInUse]: { en: 'The {kind} {code} is used by accounting entries or documents and cannot be deleted; disable it instead.', es: 'El {kind} {code} se usa en asientos o documentos y no se puede eliminar; desactívelo.', fr: 'Le {kind} {code} est utilisé par des écritures ou des documents et ne peut être supprimé ; désactivez-le.', de: 'Der {kind} {code} wird in Buchungen oder Belegen verwendet und kann nicht gelöscht werden; deaktivieren Sie ihn stattdessen.' },
  [PartyErrors.partyGdprApplied]: { en: 'The personal data of [{kind} ]{code}{id} has been erased (GDPR) and cannot be set again.', es: 'Los datos personales ([{kind} ]{code}{id}) se han suprimido (RGPD) y no se pueden volver a informar.', fr: 'Les données personnelles ([{kind} ]{code}{id}) ont été effacées (RGPD) et ne peuvent être ressaisies.', de: 'Die personenbezogenen Daten ([{kind} ]{code}{id}) wurden gelöscht (DSGVO) und können nicht erneut erfasst werden.' },
  [PartyErrors.invalidVatNumber]: { en: '{value} is not a valid VAT number for {country}.', es: '{value} no es un NIF-IVA válido para {country}.', fr: "{value} n'est pas un numéro de TVA valide pour {country}.", de: '{value} ist keine gültige USt-IdNr. für {country}.' },
  [PartyErrors.invalidIban]: { en: '{value} is not a valid IBAN.', es: '{value} no es un IBAN válido.', fr: "{value} n'est pas un IBAN valide.", de: '{value} ist keine gültige IBAN.' },
  [PartyErrors.invalidBic]: { en: '{value} is not a valid BIC.', es: '{value} no es un BIC válido.', fr: "{value} n'est pas un BIC valide.", de: '{value} ist kein gültiger BIC.' },
  [PartyErrors.invalidEmail]: { en: '{value} is not a valid e-mail address ({field}).', es: '{value} no es un correo electrónico válido ({field}).', fr: "{value} n'est pas une adresse e-mail valide ({field}).", de: '{value} ist keine gültige E-Mail-Adresse ({field}).' },
  [PartyErrors.invalidPhone]: { en: '{value} is not a valid phone number ({field}).', es: '{value} no es un teléfono válido ({field}).', fr: "{value} n'est pas un numéro de téléphone valide ({field}).", de: '{value} ist keine gültige Telefonnummer ({field}).' },
  [PartyErrors.invalidCountry]: { en: '{value} is not a known country code ({field}).', es: '{value} no es un código de país conocido ({field}).', fr: "{value} n'est pas un code pays connu ({field}).", de: '{value} ist kein bekannter Ländercode ({field}).' },
  [PartyErrors.moreThanOneDefault]: { en: 'At most one item may be marked {field}.', es: 'Solo un elemento puede marcarse como {field}.', fr: 'Un seul élément peut être marqué {field}.', de: 'Höchstens ein Eintrag darf als {field} markiert sein.' },
  [PartyErrors.statusByErasure]: { en: 'GDPR_APPLIED is the status of an erased party: it comes from applyGdpr, not from {field}.', es: 'GDPR_APPLIED es el estado de un tercero cuyos datos se han suprimido: lo da applyGdpr, no {field}.', fr: "GDPR_APPLIED est le statut d'un tiers dont les données ont été effacées : il vient d'applyGdpr, pas de {field}.", de: 'GDPR_APPLIED ist der Status eines gelöschten Geschäftspartners: Er entsteht durch applyGdpr, nicht durch {field}.' },
  [PartyErrors.partyItemNotFound]: { en: '{field}: the {kind} has no item {id} to {action}.', es: '{field}: el {kind} no tiene ningún elemento {id} que {action}.', fr: "{field} : le {kind} n'a pas d'élément {id} à {action}.", de: '{field}: Der {kind} hat keinen Eintrag {id} für {action}.' },
  [PartyErrors.partyCodeUnchangeable]: { en: 'The code of {kind} {code} cannot change (entries name it by its code); {value} was sent.', es: 'El código del {kind} {code} no puede cambiar (los asientos lo nombran por su código); se envió {value}.', fr: 'Le code du {kind} {code} ne peut changer (les écritures le nomment par son code) ; {value} a été envoyé.', de: 'Die Nummer des {kind} {code} kann sich nicht ändern (Buchungen nennen ihn bei seiner Nummer); gesendet wurde {value}.' },
};
