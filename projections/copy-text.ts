/**
 * Rows in PostgreSQL's COPY text format: one line per row, columns separated by tabs, \N for null,
 * and backslash escapes for the characters that would break a line or a column.
 * https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.2
 */

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const NEEDS_ESCAPE = /[\\\n\r\t]/g;
const HAS_ESCAPE = /[\\\n\r\t]/; // not global: test() keeps no state

function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  switch (typeof value) {
    case 'string':
      return HAS_ESCAPE.test(value) ? value.replace(NEEDS_ESCAPE, (c) => ESCAPES[c]) : value;
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
      if (typeof (value as { toFixed?: unknown }).toFixed === 'function') return String(value);
      break;
  }
  throw new TypeError(`cannot store a ${typeof value} (${Object.prototype.toString.call(value)}) in a read-model column`);
}

export function copyLine(values: readonly unknown[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += (i === 0 ? '' : '\t') + copyValue(values[i]);
  return line + '\n';
}
