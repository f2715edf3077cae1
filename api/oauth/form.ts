/**
 * Reading single-valued parameters from a query string or a form body. RFC 6749 3.1: a parameter
 * sent without a value counts as omitted, and none may be repeated.
 */
export class RepeatedParameter extends Error {
  constructor(readonly parameter: string) {
    super(`The parameter ${parameter} is repeated.`);
  }
}

/** One value or undefined; throws RepeatedParameter when the name occurs more than once. */
export function single(source: URLSearchParams | Record<string, unknown> | undefined | null, name: string): string | undefined {
  let values: unknown[];
  if (source instanceof URLSearchParams) values = source.getAll(name);
  else {
    const raw = source && Object.hasOwn(source, name) ? source[name] : undefined;
    values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  }
  if (values.length > 1) throw new RepeatedParameter(name);
  const value = values[0];
  return value === undefined || value === '' ? undefined : String(value);
}

export const isFormEncoded = (contentType: string | undefined) =>
  (contentType ?? '').split(';')[0].trim().toLowerCase() === 'application/x-www-form-urlencoded';
