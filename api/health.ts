/**
 * `GET /health`: whether this process serves, and whether its projections keep up. `status` is `ok` when
 * the read models and the fan-out are caught up and apply every organisation's events; `catching-up`
 * while one has not caught up since start; `degraded` when a projection holds an organisation's events
 * behind a parked one (`ledger projections status`, then `ledger projections retry`), or when a projection
 * stopped on a fault of its own (the others go on; it is tried again by itself). `catching-up` also while a
 * read model of another version is rebuilt in the background (its old tables serve; `upgrades` shows the
 * progress). 503 while a daemon cannot reach the database (it retries by itself). `projections` is the read
 * models' position (the transaction id of the last event they applied), as before.
 */
import type { FastifyReply } from 'fastify';
import type { DaemonHealth, ProjectionDaemon } from '../projections/engine/daemon.ts';
import type { ReadModelUpgrade } from '../projections/engine/upgrade.ts';
import { DESCRIBED_ONLY } from './openapi.ts';

const daemonHealth = {
  type: 'object',
  required: ['state', 'position', 'parked'],
  properties: {
    state: { type: 'string', enum: ['catching-up', 'live', 'retrying', 'stopped'] },
    position: { type: 'string' },
    parked: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string', format: 'uuid' } }, description: 'Organisations held behind a parked event, by projection.' },
    setAside: { type: 'object', additionalProperties: { type: 'object', required: ['reason', 'since'], properties: { reason: { type: 'string', enum: ['stopped', 'rebuilding'] }, since: { type: 'string', format: 'date-time' } } } },
    error: { type: 'string' },
  },
};
const health = {
  type: 'object',
  required: ['status', 'projections', 'readModels', 'fanout'],
  properties: {
    status: { type: 'string', enum: ['ok', 'catching-up', 'degraded', 'unavailable'] },
    projections: { type: 'string', description: 'The transaction id of the last event the read models applied.' },
    readModels: daemonHealth,
    fanout: daemonHealth,
    upgrades: { type: 'array', items: { type: 'object' }, description: 'Read models of another version being rebuilt (absent when none).' },
  },
};

/** `/health`'s route options: public, its answer described (200 while serving, 503 while a daemon cannot reach the database). */
export const HEALTH_ROUTE = { ...DESCRIBED_ONLY, schema: { summary: 'Whether this process serves and its projections keep up.', tags: ['service'], response: { 200: health, 503: health } } };

export function healthStatus(readModels: DaemonHealth, fanout: DaemonHealth): 'ok' | 'catching-up' | 'degraded' | 'unavailable' {
  const both = [readModels, fanout];
  if (both.some((d) => d.state === 'retrying' || d.state === 'stopped')) return 'unavailable';
  const setAside = both.flatMap((d) => Object.values(d.setAside ?? {}));
  if (both.some((d) => Object.keys(d.parked).length > 0) || setAside.some((a) => a.reason === 'stopped')) return 'degraded';
  if (both.some((d) => d.state === 'catching-up') || setAside.length > 0) return 'catching-up';
  return 'ok';
}

export function healthRoute(daemon: ProjectionDaemon, fanout: ProjectionDaemon, upgrade?: ReadModelUpgrade) {
  return async (_: unknown, reply: FastifyReply) => {
    // Only while something is parked: a retry elsewhere may have cleared it.
    await Promise.all([daemon.refreshParked(), fanout.refreshParked()]);
    const readModels = daemon.health();
    const queues = fanout.health();
    const status = healthStatus(readModels, queues);
    const upgrades = upgrade?.status() ?? [];
    return reply
      .code(status === 'unavailable' ? 503 : 200)
      .header('cache-control', 'no-store')
      .send({ status, projections: daemon.position.commit.toString(), readModels, fanout: queues, ...(upgrades.length > 0 ? { upgrades } : {}) });
  };
}
