/** What an operator needs to find again (organisations, OAuth clients, users): read straight from the tables. */
import type pg from 'pg';

export const LISTING_LIMITS = Object.freeze({ maxRows: 10_000 });

export async function listOrganisations(pool: pg.Pool) {
  const { rows } = await pool.query(`SELECT id, name, country FROM organisations ORDER BY name, id LIMIT $1`, [LISTING_LIMITS.maxRows]);
  return rows.map((r) => ({ id: r.id as string, name: r.name as string, country: r.country as string }));
}

/** Clients without their secrets (only hashes are stored). */
export async function listClients(pool: pg.Pool) {
  const { rows } = await pool.query(`SELECT client_id, name, redirect_uris, is_public FROM oauth_clients ORDER BY created_at, client_id LIMIT $1`, [LISTING_LIMITS.maxRows]);
  return rows.map((r) => ({ clientId: r.client_id as string, name: r.name as string, redirectUris: r.redirect_uris as string[], public: r.is_public as boolean }));
}

/** Users with their organisations and roles; `organisationId` keeps the members of one organisation. */
export async function listUsers(pool: pg.Pool, organisationId?: string) {
  const { rows } = await pool.query(
    `SELECT u.email, coalesce(json_agg(json_build_object('organisationId', m.organisation_id, 'name', o.name, 'role', m.role) ORDER BY o.name, m.organisation_id)
              FILTER (WHERE m.organisation_id IS NOT NULL), '[]') AS memberships
     FROM users u LEFT JOIN memberships m ON m.user_id = u.id LEFT JOIN organisations o ON o.id = m.organisation_id
     WHERE $1::uuid IS NULL OR EXISTS (SELECT 1 FROM memberships x WHERE x.user_id = u.id AND x.organisation_id = $1::uuid)
     GROUP BY u.id, u.email ORDER BY u.email LIMIT $2`,
    [organisationId ?? null, LISTING_LIMITS.maxRows],
  );
  return rows.map((r) => ({ email: r.email as string, memberships: r.memberships as Array<{ organisationId: string; name: string | null; role: string }> }));
}
