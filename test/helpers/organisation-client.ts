/**
 * A GraphQL caller of one organisation: the running service's own, or a new organisation of a given country with an
 * exercise for the current year, an administrator and a full_access token (tests that need several countries).
 */
import type { runningService } from './service.ts';

type Api = Awaited<ReturnType<typeof runningService>>;

export type Client = { orgId: string; headers: Record<string, string> };

/** The service's own organisation (the one its token is for). */
export const ownClient = (api: Api): Client => ({ orgId: api.organisationId, headers: { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId } });

export async function clientOf(api: Api, country: string, name: string, email: string): Promise<Client> {
  const { commands, identity, mutate } = api.service as any;
  const year = new Date().getUTCFullYear();
  const org = await commands.createOrganisation({}, { name, country });
  await mutate.createAccountingExercise({ organisationId: org.id }, { startDate: `${year}-01-01`, endDate: `${year}-12-31`, description: `FY ${year}` });
  await identity.createUser(org.id, email, 'a-long-password-here', 'admin');
  const token = await identity.issueToken(org.id, email, api.clientId, 'full_access');
  return { orgId: org.id, headers: { Authorization: `Bearer ${token.access_token}`, 'X-Site': org.id } };
}
