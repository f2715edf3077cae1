/** Texts shown to people, in every language the service speaks (error messages, reasons, named values). */
export const LANGUAGES = ['en', 'es', 'fr', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

export type Messages = Record<Language, string>;

/** An area's business errors: each code with its message in every language (api/i18n.ts renders them). */
export type ErrorMessages = Readonly<Record<string, Messages>>;
