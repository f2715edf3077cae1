/**
 * Every business error code and every refusal reason has a message in every language, naming the same
 * parameters as the English one, with no placeholder left once rendered; kinds of party read in the
 * message's language; zod refusals become invalidInput naming the field, in the client's language.
 */
import t, { type TAP } from 'tap';
import { AccountCreateInput, EntryUsingCodesInput, EntryUsingIdsInput } from '../commands/accounting/inputs.ts';
import { parse } from '../commands/handler.ts';
import { BusinessError, Errors, Reasons } from '../domain/errors.ts';
import { PartyErrors } from '../domain/parties/errors.ts';
import { AccountingErrors } from '../domain/accounting/errors.ts';
import { LANGUAGES, MESSAGES, REASONS, localize } from '../api/i18n.ts';
import { CatalogErrors } from '../domain/catalog/errors.ts';
import { SettingsErrors } from '../domain/settings/errors.ts';
import { TaxErrors } from '../domain/taxes/errors.ts';
import { SalesErrors } from '../domain/sales/errors.ts';

const placeholders = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const leftovers = /[{}[\]]/;
/** The global codes and each area's. */
const codes: string[] = [...Object.values(Errors), ...Object.values(AccountingErrors), ...Object.values(PartyErrors), ...Object.values(SettingsErrors), ...Object.values(CatalogErrors), ...Object.values(TaxErrors), ...Object.values(SalesErrors)];

function checkCatalogue(t: Pick<TAP, 'ok' | 'same' | 'notMatch'>, name: string, keys: readonly string[], catalogue: Record<string, Record<string, string>>) {
  for (const key of keys) {
    const en = catalogue[key]?.en;
    if (!t.ok(en, `${name} ${key}: an English message`)) continue;
    for (const language of LANGUAGES) {
      const template = catalogue[key][language];
      if (!t.ok(template, `${name} ${key}: a message in ${language}`)) continue;
      t.same(placeholders(template), placeholders(en), `${name} ${key} in ${language}: the parameters of the English one`);
      t.notMatch(template.replace(/\{\w+\}/g, '').replace(/\[[^[\]]*\]/g, ''), leftovers, `${name} ${key} in ${language}: only well-formed {name} and [...]`);
    }
  }
}

t.test('every error code, global or an area\'s, has a message in every language', async (t) => {
  checkCatalogue(t, 'code', codes, MESSAGES);
  t.same(Object.keys(MESSAGES).filter((code) => !codes.includes(code)), [], 'and no message for a code that is gone');
});

t.test('every reason has a message in every language', async (t) => {
  checkCatalogue(t, 'reason', Object.values(Reasons), REASONS);
  t.same(Object.keys(REASONS).sort(), Object.values(Reasons).sort(), 'and no other');
});

t.test('rendered, with all its parameters or none, a message shows no placeholder and no raw code', async (t) => {
  for (const code of codes) {
    for (const language of LANGUAGES) {
      const all = Object.fromEntries(placeholders(MESSAGES[code].en).map((p) => [p, p === 'reason' ? Reasons.tooLong : `<${p}>`]));
      for (const params of [all, {}]) {
        const message = localize(code, { ...params, maximum: 5 }, language);
        t.notMatch(message, leftovers, `${code} in ${language} with ${Object.keys(params).length} parameters: ${message}`);
        t.notOk(message.includes(code), `${code} in ${language}: not the raw code`);
      }
    }
  }
});

t.test('a kind of party reads in the language of the message', async (t) => {
  const expected = { en: ['customer', 'supplier', 'employee'], es: ['cliente', 'proveedor', 'empleado'], fr: ['client', 'fournisseur', 'salarié'], de: ['Kunde', 'Lieferant', 'Mitarbeiter'] };
  for (const language of LANGUAGES) {
    ['customer', 'supplier', 'employee'].forEach((kind, i) => {
      for (const code of [PartyErrors.partyInUse, PartyErrors.partyNotFound, PartyErrors.partyGdprApplied]) {
        const message = localize(code, { kind, code: 'C00004', id: 'C00004' }, language);
        t.ok(message.includes(`${expected[language][i]} C00004`), `${code} in ${language}: ${message}`);
      }
    });
  }
  t.equal(localize(PartyErrors.partyInUse, { kind: 'customer', code: 'C00004' }, 'es'), 'El cliente C00004 se usa en asientos o documentos y no se puede eliminar; desactívelo.');
  t.equal(localize(SettingsErrors.settingInUse, { entity: 'paymentTerm', name: '30D' }, 'es'), 'No se puede eliminar la forma de pago 30D: está en uso.');
});

t.test('two lines or more: one line and none answer the same clear message', async (t) => {
  t.equal(localize(AccountingErrors.tooFewLines, { count: 1 }, 'fr'), 'Une écriture comptable doit avoir au moins deux lignes ; celle-ci en a 1.');
});

function refusal(fn: () => unknown): BusinessError {
  try {
    fn();
  } catch (error) {
    if (error instanceof BusinessError) return error;
    throw error;
  }
  throw new Error('not refused');
}

t.test('a zod refusal is invalidInput naming the field, with a reason in the client language', async (t) => {
  const entry = { date: '2026-03-01', journalTypeCode: 'GEN', accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '1' }, { subAccountCode: '1000000', creditAmount: '1' }] };
  const cases: [string, () => unknown, string, string, Record<string, string | number>][] = [
    ['a text too long', () => parse(EntryUsingCodesInput, { ...entry, description: 'x'.repeat(501) }), 'description', Reasons.tooLong, { maximum: 500 }],
    ['too many lines', () => parse(EntryUsingCodesInput, { ...entry, accountingEntryLines: Array(501).fill(entry.accountingEntryLines[0]) }), 'accountingEntryLines', Reasons.tooManyItems, { maximum: 500 }],
    ['an empty code', () => parse(EntryUsingCodesInput, { ...entry, accountingEntryLines: [{ subAccountCode: '' }] }), 'accountingEntryLines[0].subAccountCode', Reasons.empty, {}],
    ['not a UUID', () => parse(EntryUsingIdsInput, { ...entry, journalTypeId: 'GEN', accountingEntryLines: [] }), 'journalTypeId', Reasons.notUuid, {}],
    ['a missing field', () => parse(EntryUsingCodesInput, { ...entry, journalTypeCode: undefined }), 'journalTypeCode', Reasons.required, {}],
    ['not a date', () => parse(EntryUsingCodesInput, { ...entry, date: '2026-03-01junk' }), 'date', Reasons.notDate, {}],
    ['not an enum value', () => parse(AccountCreateInput, { code: '1', name: 'x', accountType: 'NO_SUCH_TYPE' }), 'accountType', Reasons.notOneOf, {}],
    ['not an integer', () => parse(AccountCreateInput, { code: '1', name: 'x', taxonomy: 1.5 }), 'taxonomy', Reasons.notInteger, {}],
    ['a NUL character', () => parse(EntryUsingCodesInput, { ...entry, accountingEntryLines: [{ ...entry.accountingEntryLines[0], description: 'a\u0000b' }, entry.accountingEntryLines[1]] }), 'accountingEntryLines[0].description', Reasons.nulCharacter, {}],
  ];
  for (const [name, run, field, reason, limits] of cases) {
    const error = refusal(run);
    t.equal(error.code, Errors.invalidInput, `${name}: invalidInput`);
    t.match(error.params, { field, reason, ...limits }, `${name}: names ${field}, ${reason}`);
    t.ok(Object.hasOwn(REASONS, String(error.params.reason)), `${name}: the reason is a key read in the client's language`);
    for (const language of LANGUAGES) {
      const message = localize(error.code, error.params, language);
      t.ok(message.includes(field), `${name} in ${language} names the field: ${message}`);
      t.notMatch(message, /Invalid input|Too (small|big)|expected (string|number)|received/, `${name} in ${language}: not zod's English`);
      t.notMatch(message, /[{}]/, `${name} in ${language}: no placeholder left`);
    }
  }
  t.match(localize(Errors.invalidInput, refusal(cases[0][1]).params, 'de'), 'Ungültiger Wert für description: höchstens 500 Zeichen.');
});
