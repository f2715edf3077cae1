/** Localized messages for business error codes (en, es, fr, de), chosen by Accept-Language or DFT_LOCALE. */
import { GLOBAL_MESSAGES } from '../domain/global-messages.ts';
import { LANGUAGES, type Language, type Messages } from '../domain/messages.ts';
import { MODULES } from '../modules/index.ts';
import { NAMED_VALUES, REASON_MESSAGES } from './i18n-reasons.ts';

export { LANGUAGES, type Language, type Messages };
type Params = Record<string, string | number>;

/** The global codes' messages and every module's (test/i18n.test.ts walks them: each code in every language). */
export const MESSAGES: Record<string, Messages> = Object.assign({}, GLOBAL_MESSAGES, ...MODULES.map((m) => m.errors));
export const REASONS: Record<string, Messages> = REASON_MESSAGES;

/** A value echoed from the input is cut here: a message names it, it need not repeat a whole text. */
const MAX_VALUE_LENGTH = 100;

export function pickLanguage(acceptLanguage: string | undefined, cookie: string | undefined): Language {
  const fromCookie = /DFT_LOCALE=([a-z]{2})/i.exec(cookie ?? '')?.[1]?.toLowerCase();
  const candidates = [fromCookie, ...(acceptLanguage ?? '').split(',').map((part) => part.trim().slice(0, 2).toLowerCase())];
  return (candidates.find((c) => c && (LANGUAGES as readonly string[]).includes(c)) as Language) ?? 'en';
}

/** One parameter as the message shows it: a reason or a kind's name in the language, other values as given. */
function shown(key: string, params: Params, language: Language): string | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  const text = String(value);
  if (key === 'reason' && Object.hasOwn(REASONS, text)) return render(REASONS[text][language], { ...params, reason: '' }, language);
  const named = NAMED_VALUES[key];
  if (named && Object.hasOwn(named, text)) return named[text][language];
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH)}…` : text;
}

/** `{name}` is a parameter; `[...]` is shown only when every parameter in it is given. */
function render(template: string, params: Params, language: Language): string {
  const withParts = template.replace(/\[([^[\]]*)\]/g, (_, part: string) =>
    [...part.matchAll(/\{(\w+)\}/g)].every(([, key]) => shown(key, params, language) !== undefined) ? part : '');
  return withParts.replace(/\{(\w+)\}/g, (_, key: string) => shown(key, params, language) ?? '');
}

export function localize(code: string, params: Params, language: Language): string {
  const messages = Object.hasOwn(MESSAGES, code) ? MESSAGES[code] : undefined;
  if (!messages) return `${code} ${JSON.stringify(params)}`;
  return render(messages[language] ?? messages.en, params, language);
}

/**
 * A code's message as a template in the language (`localizedErrorMessage`): its `{name}` parameters kept for
 * the client to fill, its optional `[...]` parts shown without brackets. Undefined for an unknown code.
 */
export function messageTemplate(code: string, language: Language): string | undefined {
  const messages = Object.hasOwn(MESSAGES, code) ? MESSAGES[code] : undefined;
  return messages && (messages[language] ?? messages.en).replace(/\[([^[\]]*)\]/g, '$1');
}
