/**
 * `auditChainHead`: the last link of the caller's organisation's hash chain (the auditor's trail,
 * eventstore/postgres/chain.ts), for an auditor to note and compare later with what `ledger verify` prints.
 * Read through the service's own event store (its chain names the caller's organisation and no other); a store
 * that keeps no chain (KurrentDB) answers NOT_SUPPORTED.
 */
import { GraphQLError } from 'graphql';
import { formatPosition } from '../../eventstore/port.ts';
import type { QuerySpec } from '../../modules/module.ts';

export const AUDIT_CHAIN: QuerySpec = {
  sdl: `
"The last link of an organisation's hash chain: each event's hash covers the previous one's and the event as stored."
type AuditChainHead {
  "The event store position of the chain's last event (COMMIT/PREPARE)."
  position: String!
  eventId: UUID!
  "sha256, hex."
  hash: String!
  "Events in the chain."
  eventCount: Int!
}`,
  rootFields: `
  "The caller's organisation's hash-chain head (ours: the auditor's trail; \`ledger verify\` recomputes the chain). With seq: the link at that seq as stored (null past the head), which \`ledger verify --expect SEQ:HASH\` checks."
  auditChainHead(seq: Int): AuditChainHead`,
  resolvers: {
    async auditChainHead(args: { seq?: number | null }, ctx) {
      if (args.seq != null && !(args.seq >= 1)) throw new GraphQLError('auditChainHead: seq counts links from 1', { extensions: { code: 'BAD_USER_INPUT', field: 'seq' } });
      const chain = ctx.services.aggregates.store.chain;
      if (!chain) throw new GraphQLError('auditChainHead: not supported by this event store', { extensions: { code: 'NOT_SUPPORTED' } });
      if (args.seq != null) {
        const link = await chain.link(ctx.caller.organisationId, BigInt(args.seq));
        return link && { position: formatPosition(link.position), eventId: link.eventId, hash: link.hash, eventCount: args.seq };
      }
      const head = await chain.head(ctx.caller.organisationId);
      return head && { position: formatPosition(head.position), eventId: head.eventId, hash: head.hash, eventCount: Number(head.eventCount) };
    },
  },
};
