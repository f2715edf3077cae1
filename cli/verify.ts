/** `ledger verify`: recompute an organisation's hash chain from its events and say where it breaks, if it does. */
import { formatPosition } from '../eventstore/port.ts';
import { checkChain, type ExpectedLink } from '../eventstore/postgres/chain.ts';
import type { Command } from './args.ts';
import { UsageError } from './args.ts';
import { CliFailure, type CliContext } from './commands.ts';

/** `SEQ:HASH`, a link an auditor noted (auditChainHead's eventCount and hash). */
function expectedLink(text: string): ExpectedLink {
  const match = /^([1-9][0-9]{0,18}):([0-9a-fA-F]{64})$/.exec(text.trim());
  if (!match) throw new UsageError(`ledger verify: --expect takes SEQ:HASH (a link's seq and its sha256 in hex), not '${text}'`);
  return { seq: BigInt(match[1]), hash: match[2].toLowerCase() };
}

export const verifyChain: Command<CliContext> = {
  name: 'verify', summary: 'check an organisation\'s events against their hash chain (the auditor\'s trail); prints the head, or the first event that does not match',
  details: `Exit 0: every event hashes to its link (and each --expect link has the hash noted). Exit 1 names the first one that does not (changed, moved, missing, a link missing). Use --org ${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)} for the events of no organisation.`,
  options: {
    org: { type: 'string', value: 'ID', description: 'the organisation id', required: true, uuid: true },
    expect: { type: 'string', value: 'SEQ:HASH', description: 'a link noted earlier (auditChainHead\'s eventCount:hash) that must still have that hash; repeatable', multiple: true },
  },
  async run({ core, print }, v) {
    const chain = core.store.chain;
    if (!chain) throw new CliFailure('verify: not supported by this store (its events are not chained)');
    const organisationId = String(v.org);
    const expect = ((v.expect ?? []) as string[]).map(expectedLink);
    const started = Date.now();
    const onProgress = process.stderr.isTTY ? (n: bigint) => process.stderr.write(`\rverifying: ${n} events`) : undefined;
    const result = await checkChain(chain, organisationId, { expect, onProgress });
    if (process.stderr.isTTY) process.stderr.write('\n');
    if (!result.ok) {
      const b = result.broken;
      throw new CliFailure(`chain broken at event ${b.eventId} (position ${formatPosition(b.position)}${b.seq === undefined ? '' : `, seq ${b.seq}`}): ${b.reason}`);
    }
    const seconds = (Date.now() - started) / 1000;
    const head = result.head && { eventId: result.head.eventId, position: formatPosition(result.head.position), hash: result.head.hash, eventCount: Number(result.head.eventCount) };
    print({ organisationId, verified: true, head: head ?? null, expected: expect.map((e) => ({ seq: Number(e.seq), hash: e.hash })), seconds }, () => head
      ? `chain verified: ${head.eventCount} events in ${seconds.toFixed(2)} s; head ${head.hash} at event ${head.eventId} (position ${head.position})${expect.length ? `; ${expect.length} expected link(s) match` : ''}`
      : `no events in organisation ${organisationId}`);
  },
};
