/**
 * Failures of the database's availability (connections, resources, shutdown, a transaction chosen as a
 * deadlock's or serialisation's victim): the same work is worth trying again later. Anything else
 * (bad data, a bug) would fail the same way again.
 */
export function isTransient(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  if (typeof e?.code === 'string' && (/^(08|53|58|57P0|40001|40P01)/.test(e.code) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN'].includes(e.code))) return true;
  return /timeout exceeded when trying to connect|Connection terminated|connection error|Cannot use a pool after calling end/i.test(e?.message ?? '');
}
