/**
 * Messages (en, es, fr, de) of the global business errors, those no single area owns (domain/errors.ts
 * Errors). `[...]` is a part shown only when every parameter in it is given (api/i18n.ts).
 */
import { Errors } from './errors.ts';
import type { Messages } from './messages.ts';

/** Every global code of Errors with its message in every language (a missing one does not compile). */
type GlobalErrorCode = (typeof Errors)[keyof typeof Errors];

export const GLOBAL_MESSAGES: Record<GlobalErrorCode, Messages> = {
  [Errors.organisationNotFound]: { en: 'The organisation[ {id}] does not exist.', es: 'La organización[ {id}] no existe.', fr: "L'organisation[ {id}] n'existe pas.", de: 'Die Organisation[ {id}] existiert nicht.' },
  [Errors.organisationAlreadyExists]: { en: 'The organisation {id} already exists.', es: 'La organización {id} ya existe.', fr: "L'organisation {id} existe déjà.", de: 'Die Organisation {id} existiert bereits.' },
  [Errors.documentIdAlreadyExists]: { en: 'The id {id} is already used in this organisation.', es: 'El identificador {id} ya se usa en esta organización.', fr: "L'identifiant {id} est déjà utilisé dans cette organisation.", de: 'Die ID {id} wird in dieser Organisation bereits verwendet.' },
  [Errors.notFound]: { en: 'Not found[: {id}].', es: 'No encontrado[: {id}].', fr: 'Introuvable[ : {id}].', de: 'Nicht gefunden[: {id}].' },
  [Errors.invalidInput]: { en: 'Invalid value for {field}[ ({value})][: {reason}].', es: 'Valor no válido para {field}[ ({value})][: {reason}].', fr: 'Valeur invalide pour {field}[ ({value})][ : {reason}].', de: 'Ungültiger Wert für {field}[ ({value})][: {reason}].' },
  [Errors.concurrencyConflict]: { en: 'Another request changed the same records at the same time; try again.', es: 'Otra solicitud modificó los mismos datos a la vez; vuelva a intentarlo.', fr: 'Une autre requête a modifié les mêmes données au même moment ; réessayez.', de: 'Eine andere Anfrage hat dieselben Daten gleichzeitig geändert; versuchen Sie es erneut.' },
  [Errors.idempotencyKeyReused]: { en: 'This idempotency key was already used for another request: send a new key with each new request.', es: 'Esta clave de idempotencia ya se usó para otra solicitud: envíe una clave nueva con cada solicitud nueva.', fr: "Cette clé d'idempotence a déjà servi pour une autre requête : envoyez une nouvelle clé avec chaque nouvelle requête.", de: 'Dieser Idempotenzschlüssel wurde bereits für eine andere Anfrage verwendet: senden Sie mit jeder neuen Anfrage einen neuen Schlüssel.' },
};
