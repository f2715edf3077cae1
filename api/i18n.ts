/** Localized messages for business error codes (en, es, fr, de), chosen by Accept-Language or DFT_LOCALE. */
import { Errors } from '../domain/errors.ts';
import { PARTY_MESSAGES } from './i18n-parties.ts';

export const LANGUAGES = ['en', 'es', 'fr', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

type Messages = Record<Language, string>;
const M: Record<string, Messages> = {
  ...PARTY_MESSAGES,
  [Errors.unbalancedEntry]: { en: 'The entry is unbalanced: debits {debit} and credits {credit} must be equal.', es: 'El asiento está descuadrado: el debe {debit} y el haber {credit} deben ser iguales.', fr: "L'écriture est déséquilibrée : débit {debit} et crédit {credit} doivent être égaux.", de: 'Die Buchung ist nicht ausgeglichen: Soll {debit} und Haben {credit} müssen gleich sein.' },
  [Errors.invalidLineAmount]: { en: 'Invalid line amount: each line needs exactly one positive debit or credit with at most the currency precision.', es: 'Importe de línea no válido: cada línea necesita exactamente un debe o un haber positivo.', fr: 'Montant de ligne invalide : chaque ligne doit avoir exactement un débit ou un crédit positif.', de: 'Ungültiger Zeilenbetrag: jede Zeile braucht genau einen positiven Soll- oder Habenbetrag.' },
  [Errors.periodClosed]: { en: 'The accounting period of {date} is closed.', es: 'El periodo contable de {date} está cerrado.', fr: 'La période comptable du {date} est clôturée.', de: 'Die Buchungsperiode von {date} ist abgeschlossen.' },
  [Errors.exerciseClosed]: { en: 'The accounting exercise is closed.', es: 'El ejercicio contable está cerrado.', fr: "L'exercice comptable est clôturé.", de: 'Das Geschäftsjahr ist abgeschlossen.' },
  [Errors.noExerciseForDate]: { en: 'No accounting exercise covers {date}.', es: 'Ningún ejercicio contable cubre {date}.', fr: 'Aucun exercice comptable ne couvre le {date}.', de: 'Kein Geschäftsjahr umfasst {date}.' },
  [Errors.accountNotFound]: { en: 'Unknown accounting account {code}{id}.', es: 'Cuenta contable desconocida {code}{id}.', fr: 'Compte comptable inconnu {code}{id}.', de: 'Unbekanntes Sachkonto {code}{id}.' },
  [Errors.accountDeactivated]: { en: 'The accounting account {code} is deactivated.', es: 'La cuenta contable {code} está desactivada.', fr: 'Le compte comptable {code} est désactivé.', de: 'Das Sachkonto {code} ist deaktiviert.' },
  [Errors.accountNotPostable]: { en: 'The account {code} is a heading; entries post to sub-accounts only.', es: 'La cuenta {code} es de agrupación; solo se puede asentar en subcuentas.', fr: 'Le compte {code} est un compte de regroupement ; seules les sous-comptes acceptent des écritures.', de: 'Das Konto {code} ist ein Sammelkonto; gebucht wird nur auf Unterkonten.' },
  [Errors.accountHasEntries]: { en: 'The account {code} has entries and cannot be deleted; deactivate it instead.', es: 'La cuenta {code} tiene asientos y no se puede eliminar; desactívela.', fr: 'Le compte {code} a des écritures et ne peut être supprimé ; désactivez-le.', de: 'Das Konto {code} hat Buchungen und kann nicht gelöscht werden; deaktivieren Sie es.' },
  [Errors.accountCodeAlreadyExists]: { en: 'An account with code {code} already exists.', es: 'Ya existe una cuenta con el código {code}.', fr: 'Un compte de code {code} existe déjà.', de: 'Ein Konto mit der Nummer {code} existiert bereits.' },
  [Errors.exerciseOverlaps]: { en: 'The exercise overlaps the exercise {startDate} to {endDate}.', es: 'El ejercicio se solapa con el ejercicio de {startDate} a {endDate}.', fr: "L'exercice chevauche l'exercice du {startDate} au {endDate}.", de: 'Das Geschäftsjahr überschneidet sich mit {startDate} bis {endDate}.' },
  [Errors.journalTypeNotFound]: { en: 'Unknown journal type {code}{id}.', es: 'Diario desconocido {code}{id}.', fr: 'Journal inconnu {code}{id}.', de: 'Unbekanntes Journal {code}{id}.' },
  [Errors.idempotencyKeyReused]: { en: 'This idempotency key was already used for another request: send a new key with each new request.', es: 'Esta clave de idempotencia ya se usó para otra solicitud: envíe una clave nueva con cada solicitud nueva.', fr: "Cette clé d'idempotence a déjà servi pour une autre requête : envoyez une nouvelle clé avec chaque nouvelle requête.", de: 'Dieser Idempotenzschlüssel wurde bereits für eine andere Anfrage verwendet: senden Sie mit jeder neuen Anfrage einen neuen Schlüssel.' },
  [Errors.invalidInput]: { en: 'Invalid value for {field}: {reason}', es: 'Valor no válido para {field}: {reason}', fr: 'Valeur invalide pour {field} : {reason}', de: 'Ungültiger Wert für {field}: {reason}' },
};

export function pickLanguage(acceptLanguage: string | undefined, cookie: string | undefined): Language {
  const fromCookie = /DFT_LOCALE=([a-z]{2})/i.exec(cookie ?? '')?.[1]?.toLowerCase();
  const candidates = [fromCookie, ...(acceptLanguage ?? '').split(',').map((part) => part.trim().slice(0, 2).toLowerCase())];
  return (candidates.find((c) => c && (LANGUAGES as readonly string[]).includes(c)) as Language) ?? 'en';
}

export function localize(code: string, params: Record<string, string | number>, language: Language): string {
  const template = M[code]?.[language] ?? M[code]?.en;
  if (!template) return `${code} ${JSON.stringify(params)}`;
  return template.replace(/\{(\w+)\}/g, (_, key) => (params[key] === undefined ? '' : String(params[key])));
}
