/**
 * The organisation's lock (organisation-locks.ts) around whole commands, taken before any stream lock. A guarded
 * deletion (a product, a price list: one whose check reads a stream other than the one it appends to) holds it alone;
 * a command whose decision checks what such a deletion removes (an account, a journal type, a product, a customer, a
 * price list) shares it. So in no process does a deletion decide between such a command's check and its append:
 * the in-process stream locks order the two only within one process.
 */
import type { CommandHandler } from './handler.ts';

export function sharingOrganisation(handler: CommandHandler): CommandHandler {
  return (services, ctx, raw) => services.locks.shared(ctx.organisationId, () => handler(services, ctx, raw));
}

export function aloneInOrganisation(handler: CommandHandler): CommandHandler {
  return (services, ctx, raw) => services.locks.exclusive(ctx.organisationId, () => handler(services, ctx, raw));
}
