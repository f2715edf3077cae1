/**
 * The shared settings' business errors, with their messages in every language. {entity} reads in the
 * message's language (api/i18n-reasons.ts NAMED_VALUES); `[...]` shows only when its parameters are given.
 */
import type { Messages } from '../messages.ts';

export const SettingsErrors = {
  settingNotFound: 'global.businessErrors.sharedSettingNotFound',
  settingAlreadyExists: 'global.businessErrors.sharedSettingAlreadyExists',
  settingInUse: 'global.businessErrors.sharedSettingInUse',
  invalidPaymentTermLines: 'global.businessErrors.invalidPaymentTermLines',
} as const;

export const SETTINGS_MESSAGES: Record<(typeof SettingsErrors)[keyof typeof SettingsErrors], Messages> = {
  [SettingsErrors.invalidPaymentTermLines]: { en: 'Invalid payment term lines ({field}): {reason}.', es: 'Vencimientos no válidos ({field}): {reason}.', fr: 'Échéances invalides ({field}) : {reason}.', de: 'Ungültige Zahlungsbedingungen ({field}): {reason}.' },
  [SettingsErrors.settingNotFound]: { en: 'Unknown {entity} {id}[ ({field})].', es: 'No existe {entity} {id}[ ({field})].', fr: 'Introuvable : {entity} {id}[ ({field})].', de: 'Unbekannt: {entity} {id}[ ({field})].' },
  [SettingsErrors.settingAlreadyExists]: { en: 'A {entity} {name}{code} already exists.', es: 'Ya existe {entity} {name}{code}.', fr: 'Existe déjà : {entity} {name}{code}.', de: 'Existiert bereits: {entity} {name}{code}.' },
  [SettingsErrors.settingInUse]: { en: 'The {entity} {name} is in use and cannot be deleted.', es: 'No se puede eliminar {entity} {name}: está en uso.', fr: "Suppression impossible, en cours d'utilisation : {entity} {name}.", de: 'Kann nicht gelöscht werden, da in Verwendung: {entity} {name}.' },
};
