/**
 * A zod refusal as the business error clients know: invalidInput naming the field as the domain names
 * fields (`accountingEntryLines[0].debitAmount`), with a reason key and its limits, so the client reads
 * it in its own language (api/i18n-reasons.ts) instead of zod's English.
 */
import type { z } from 'zod';
import { BusinessError, Errors, Reasons } from '../domain/errors.ts';

const MAX_LISTED = 10;

export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((at, key) => (typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${String(key)}` : String(key)), '') || 'input';
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

const listed = (values: readonly unknown[]) => values.slice(0, MAX_LISTED).map(String).join(', ') + (values.length > MAX_LISTED ? ', …' : '');

/** The reason and its parameters for one zod issue. */
function reasonOf(issue: z.core.$ZodIssue, input: unknown): Record<string, string | number> {
  switch (issue.code) {
    case 'invalid_type':
      if (valueAt(input, issue.path) === undefined) return { reason: Reasons.required };
      return issue.expected === 'int' ? { reason: Reasons.notInteger } : { reason: Reasons.expectedType, expected: issue.expected };
    case 'too_small': {
      const minimum = Number(issue.minimum);
      if (issue.origin === 'string') return minimum === 1 ? { reason: Reasons.empty } : { reason: Reasons.tooShort, minimum };
      if (issue.origin === 'array' || issue.origin === 'set') return { reason: Reasons.tooFewItems, minimum };
      return { reason: Reasons.tooSmall, minimum };
    }
    case 'too_big': {
      const maximum = Number(issue.maximum);
      if (issue.origin === 'string') return { reason: Reasons.tooLong, maximum };
      if (issue.origin === 'array' || issue.origin === 'set') return { reason: Reasons.tooManyItems, maximum };
      return { reason: Reasons.tooBig, maximum };
    }
    case 'invalid_format':
      return issue.format === 'uuid' ? { reason: Reasons.notUuid } : { reason: Reasons.badFormat, format: issue.format };
    case 'invalid_value':
      return { reason: Reasons.notOneOf, values: listed(issue.values) };
    case 'unrecognized_keys':
      return { reason: Reasons.unknownFields, keys: listed(issue.keys) };
    case 'custom':
      return issue.message in Reasons ? { reason: issue.message } : { reason: Reasons.badValue };
    default:
      return { reason: Reasons.badValue };
  }
}

export function invalidInput(error: z.ZodError, input: unknown): BusinessError {
  const issue = error.issues[0];
  return new BusinessError(Errors.invalidInput, { field: fieldPath(issue.path), ...reasonOf(issue, input) });
}
