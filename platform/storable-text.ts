/**
 * Text every store can hold. PostgreSQL's text and jsonb refuse the NUL character and lone UTF-16
 * surrogates (half of a pair, which no UTF-8 text can hold; JSON may spell one as `\ud800`). The json
 * column and KurrentDB keep both, so an event holding one would be stored for good and then refused by
 * every projection that meets it. Hence: inputs are refused at the boundary (unstorableTextAt), the event
 * stores refuse such a body (assertStorableJson), and projections write what they read in a form every
 * column takes (storableText, storableJson) so events stored by older versions stop nothing.
 */

/** NUL, or a surrogate that is not half of a pair (with the u flag a whole pair is one code point, not Cs). */
const UNSTORABLE = /[\0\p{Cs}]/u;
const UNSTORABLE_ALL = /[\0\p{Cs}]/gu;

export const TEXT_LIMITS = Object.freeze({ maxDepth: 20 });

export const unstorableReason = (s: string): string | undefined =>
  UNSTORABLE.test(s) ? (s.includes('\0') ? 'contains a NUL character' : 'contains ill-formed Unicode (a lone surrogate)') : undefined;

/**
 * Where the first unstorable string (a value or a key) sits in `value`: `field` as a dotted path ('input' for
 * the value itself), `path` as keys and indexes, why (`reason`, in English for logs and non-GraphQL answers),
 * and whether it is a NUL (else a lone surrogate). Undefined when every string is storable.
 */
export function unstorableTextAt(
  value: unknown, path: (string | number)[] = [], depth = 0,
): { field: string; path: (string | number)[]; reason: string; nul: boolean } | undefined {
  const found = (at: (string | number)[], s: string, prefix = '') => {
    const reason = unstorableReason(s);
    return reason ? { field: at.join('.') || 'input', path: at, reason: `${prefix}${reason}`, nul: s.includes('\0') } : undefined;
  };
  if (typeof value === 'string') return found(path, value);
  if (value === null || typeof value !== 'object' || depth > TEXT_LIMITS.maxDepth) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const at = [...path, Array.isArray(value) ? Number(key) : key];
    const inKey = found(at, key, 'its name ');
    if (inKey) return inKey;
    const inChild = unstorableTextAt(child, at, depth + 1);
    if (inChild) return inChild;
  }
  return undefined;
}

/** The string with each NUL and lone surrogate replaced by U+FFFD (what a UTF-8 encoder makes of a surrogate). */
export const storableText = (s: string): string => (UNSTORABLE.test(s) ? s.replace(UNSTORABLE_ALL, '\ufffd') : s);

/**
 * Where the first `\u0000` or `\uD800`-`\uDFFF` escape sits in serialised JSON (JSON.stringify's: it escapes
 * lone surrogates, a whole pair stays as its characters, and control characters), with its four hex
 * digits; -1 when none. One pass from left to right, escape by escape (a backslash and the character it
 * escapes), so `\\u0000` is a backslash followed by text. Linear: a run of backslashes is not scanned
 * again from each of its positions (a lookbehind regex was quadratic in the run).
 */
function unstorableEscapeAt(json: string, from = 0): number {
  for (let i = json.indexOf('\\', from); i !== -1; i = json.indexOf('\\', i + 2)) {
    if (json.charCodeAt(i + 1) !== 0x75 /* u */) continue; // \\, \n, \" ...: two characters, skipped together
    const hex = json.slice(i + 2, i + 6).toLowerCase();
    if (hex === '0000' || /^d[89a-f][0-9a-f]{2}$/.test(hex)) return i;
    i += 4; // (the loop adds the backslash and the u)
  }
  return -1;
}

/** Why this serialised JSON (JSON.stringify's) cannot be stored, or undefined. Cheap: most events hold no escape at all. */
export function unstorableJson(json: string): string | undefined {
  if (!json.includes('\\u')) return undefined;
  const at = unstorableEscapeAt(json);
  if (at === -1) return undefined;
  const hex = json.slice(at + 2, at + 6).toLowerCase();
  return hex === '0000' ? 'a NUL character (\\u0000)' : `a lone surrogate (\\u${hex})`;
}

/** Throws when one of an append's serialised bodies holds what jsonb/text refuse: the caller's input let it through. */
export function assertStorableJson(streamId: string, bodies: readonly string[]): void {
  for (const json of bodies) {
    const reason = unstorableJson(json);
    if (reason) throw new RangeError(`an event for ${streamId} holds ${reason}, which PostgreSQL jsonb and text cannot store: refused`);
  }
}

/** Serialised JSON (JSON.stringify's) that jsonb takes: each unstorable escape becomes \ufffd. */
export function storableJson(json: string): string {
  if (!json.includes('\\u')) return json;
  let out = '';
  let copied = 0;
  for (let at = unstorableEscapeAt(json); at !== -1; at = unstorableEscapeAt(json, copied)) {
    out += json.slice(copied, at) + '\\ufffd';
    copied = at + 6;
  }
  return copied === 0 ? json : out + json.slice(copied);
}
