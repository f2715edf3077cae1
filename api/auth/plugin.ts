/**
 * The one authentication plugin of the HTTP layer. Registered once at the root, it decorates every
 * request with a typed `request.caller` and gives each area `app.authenticateCallers(rule)`, which adds
 * the authentication hook (api/auth/request.ts decides) to that area's routes only, with the area's own
 * refusal format. Routes that did not opt in (OAuth, /health, unknown paths) never authenticate, so they
 * never read the token tables.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller, Identity } from './identity.ts';
import { authenticateRequest, type Refusal } from './request.ts';

export interface CallerRule {
  /** 'required' for GraphQL and REST (spec 5.1); 'optional' for the event queue (the token's own organisation). */
  organisation: 'required' | 'optional';
  /**
   * Answers a refusal in the area's format. Without it the request goes on with `caller` null and
   * `callerRefusal` set: GraphQL refuses per field, not per request.
   */
  refuse?: (reply: FastifyReply, refusal: Refusal) => FastifyReply;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who sent the request; null before the area's hook has run, or when it refused. */
    caller: Caller | null;
    /** Why `caller` is null, when the area's hook refused. */
    callerRefusal: Refusal | null;
  }
  interface FastifyInstance {
    /** Authenticates every route of this context (and its children) before its handler. */
    authenticateCallers(rule: CallerRule): void;
  }
}

/** The caller of a route behind `authenticateCallers` with a `refuse`: its handler runs only once authenticated. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error(`${request.method} ${request.routeOptions.url} is not behind authenticateCallers`);
  return request.caller;
}

async function callersPlugin(app: FastifyInstance, options: { identity: Identity }): Promise<void> {
  const { identity } = options;
  app.decorateRequest('caller', null);
  app.decorateRequest('callerRefusal', null);
  app.decorate('authenticateCallers', function (this: FastifyInstance, rule: CallerRule) {
    this.addHook('preHandler', async (request, reply) => {
      const { caller, refusal } = await authenticateRequest(identity, request.headers, rule.organisation);
      request.caller = caller ?? null;
      request.callerRefusal = refusal ?? null;
      if (refusal && rule.refuse) return rule.refuse(reply, refusal);
    });
  });
}

/** Not encapsulated (what fastify-plugin does): the decorations belong to the root, so every area sees them. */
export const authPlugin = Object.assign(callersPlugin, { [Symbol.for('skip-override')]: true });
