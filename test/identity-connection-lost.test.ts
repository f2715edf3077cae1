/**
 * Identity's transactions (grants, codes, revocations) run through the one inTransaction of
 * platform/database.ts: a connection lost under them fails that call, not the process, and the broken
 * client is not pooled again.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { runningService } from './helpers/service.ts';

const running = await runningService(t);
const { service, organisationId, clientId } = running;
const pool = service.db.pool;

t.test('a connection lost while revoking a grant rejects the revocation; the service goes on serving', async (t) => {
  const user = (await pool.query(`SELECT user_id FROM memberships WHERE organisation_id = $1 LIMIT 1`, [organisationId])).rows[0].user_id;
  const grantId = randomUUID();
  await pool.query(`INSERT INTO oauth_grants (id, client_id, user_id, organisation_id, country, scope) VALUES ($1, $2, $3, $4, 'ES', 'full_access')`, [
    grantId, clientId, user, organisationId,
  ]);
  // The server ends the revoking connection under its transaction (as when PostgreSQL restarts).
  await pool.query(`CREATE FUNCTION test_lose_connection() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NEW; END $$;
    CREATE TRIGGER test_lose_connection BEFORE UPDATE ON oauth_grants FOR EACH ROW EXECUTE FUNCTION test_lose_connection();`);
  await t.rejects(service.identity.revokeGrant(grantId, 'test'), /terminat/, 'the revocation fails with the lost connection');
  await new Promise((r) => setTimeout(r, 200)); // the client's late 'error' event, which would end an unheard process
  await pool.query(`DROP TRIGGER test_lose_connection ON oauth_grants; DROP FUNCTION test_lose_connection()`);
  await service.identity.revokeGrant(grantId, 'test');
  const { rows } = await pool.query(`SELECT revoked_reason FROM oauth_grants WHERE id = $1`, [grantId]);
  t.equal(rows[0].revoked_reason, 'test', 'a retry commits on a sound connection');
  const health = await fetch(`${running.base}/health`);
  t.equal(health.status, 200, 'the service still answers');
});
