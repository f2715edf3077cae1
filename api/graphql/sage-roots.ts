/**
 * The roots every Sage client calls first (fact sheet §2): who the user is, the enumerations' labels and the
 * errors' messages in a language, and the master charts by id. `HEADER_FREE_ROOTS` are answered without an
 * organisation header (a client calls them to find its organisation); every other field still needs one.
 */
import { MASTER_CHARTS } from '../../domain/reference/charts.ts';
import { referenceId } from '../../domain/reference/countries.ts';
import { messageTemplate, pickLanguage, type Language } from '../i18n.ts';

export const HEADER_FREE_ROOTS: ReadonlySet<string> = new Set(['organizations', 'userProfile', 'localizedEnumValues', 'localizedErrorMessage']);

export const SAGE_ROOTS_SDL = `
type UserProfile {
  id: UUID!
  fullName: String
  firstName: String
  lastName: String
  authenticationEmail: String
  applicationLanguageCode: String
}`;

export const SAGE_ROOT_FIELDS = `
  userProfile: UserProfile
  localizedEnumValues(enumName: String!, language: String!): [LocalizedEnumMessageOutputGLDto!]! @listSize(assumedSize: 20)
  localizedErrorMessage(errorCode: String!, language: String!): LocalizedErrorMessageOutputGLDto
  accountingPlanMasters: [AccountingPlanMasterGLDto!]! @listSize(assumedSize: 10)
  accountingPlansMasterById(id: ID!): AccountingPlanMasterGLDto`;

/** Sage sends a language as `en`, `fr-FR` or `FR`; one we do not speak is answered in English. */
export const languageOf = (language: string): Language => pickLanguage(language, undefined);

export function masterCharts() {
  return MASTER_CHARTS.map((chart) => ({
    id: referenceId('chart', chart.key),
    description: chart.description,
    accountingPlanMasterLines: chart.lines.map((line) => ({ ...line, id: referenceId('chart-line', `${chart.key}:${line.code}`) })),
  }));
}

/** Chart ids are derived UUIDs, compared as text: any case names the same chart. */
export const masterChartById = (id: string) => masterCharts().find((chart) => chart.id === id.toLowerCase()) ?? null;

/**
 * An enumeration's values with their labels. No enumeration has labels yet: each value is its own label
 * (the values are being aligned with Sage's, issue 17 item 1; labels follow once they are final).
 */
export function localizedEnumValues(enums: Readonly<Record<string, readonly string[]>>, enumName: string): { value: string; label: string }[] | undefined {
  const values = Object.hasOwn(enums, enumName) ? enums[enumName] : undefined;
  return values?.map((value) => ({ value, label: value }));
}

export function localizedErrorMessage(errorCode: string, language: string) {
  const shown = languageOf(language);
  const message = messageTemplate(errorCode, shown);
  return message === undefined ? null : { errorCode, language: shown, message };
}
