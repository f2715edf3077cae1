/**
 * Rows in PostgreSQL's COPY text format: one line per row, columns separated by tabs, \N for null,
 * and backslash escapes for the characters that would break a line or a column.
 * https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.2
 */
import { storableText } from '../../platform/storable-text.ts';

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const NEEDS_ESCAPE = /[\\\n\r\t]/g;
const HAS_ESCAPE = /[\\\n\r\t]/; // not global: test() keeps no state

/**
 * The text PostgreSQL is given for a non-null value, as a parameter or in COPY: what its input
 * function parses. The binary COPY encoder (copy-binary.ts) must store what this text would.
 */
export function textOf(value: unknown): string {
  switch (typeof value) {
    case 'string':
      // NUL fails a text column (a lone surrogate becomes U+FFFD in UTF-8 anyway): an event stored by an
      // older version must not stop a read model.
      return value.includes('\0') ? storableText(value) : value;
    case 'boolean':
      return value ? 't' : 'f';
    case 'number':
      if (!Number.isFinite(value)) throw new RangeError(`cannot store ${value} in a read model`);
      return String(value);
    case 'bigint':
      return value.toString();
    case 'object':
      if (value instanceof Date) return value.toISOString();
      // Decimal and the like print themselves; plain objects and arrays have no column to go to.
      if (value !== null && typeof (value as { toFixed?: unknown }).toFixed === 'function') return String(value);
      break;
  }
  throw new TypeError(`cannot store a ${typeof value} (${Object.prototype.toString.call(value)}) in a read-model column`);
}

function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = textOf(value);
  return HAS_ESCAPE.test(text) ? text.replace(NEEDS_ESCAPE, (c) => ESCAPES[c]) : text;
}

export function copyLine(values: readonly unknown[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += (i === 0 ? '' : '\t') + copyValue(values[i]);
  return line + '\n';
}
