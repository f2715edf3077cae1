/** First-start demo: an organisation with a year of books, a user, an OAuth client and a ready token. */
import type { ProjectionDaemon } from '../projections/engine/daemon.ts';
import type { Core } from './core.ts';

export const DEMO = Object.freeze({ email: 'demo@example.com', password: 'demo-password', organisation: 'Demo Ibérica S.L.' });

export async function seedDemo(service: Pick<Core, 'commands' | 'mutate' | 'identity'> & { daemon: ProjectionDaemon }) {
  const { commands, mutate, identity } = service;
  const ctx = { userId: undefined };
  const org = await commands.createOrganisation(ctx, { name: DEMO.organisation, country: 'ES' });
  const organisationId = org.id;
  const c = { organisationId };
  const year = new Date().getUTCFullYear();
  await mutate.createAccountingExercise(c, { startDate: `${year}-01-01`, endDate: `${year}-12-31`, description: `Ejercicio ${year}` });
  await mutate.createAccountingAccount(c, { code: '4300001', name: 'Cliente Ejemplo S.A.' });
  await mutate.createAccountingAccount(c, { code: '4000001', name: 'Proveedor Ejemplo S.L.' });
  const entries = [
    { description: 'Aportación de capital', lines: [['5720000', '30000.00', null], ['1000000', null, '30000.00']] },
    { description: 'Factura de venta 2026/001', journal: 'VEN', lines: [['4300001', '1210.00', null], ['7000000', null, '1000.00'], ['4770000', null, '210.00']] },
    { description: 'Factura de compra P-17', journal: 'COM', lines: [['6000000', '500.00', null], ['4720000', '105.00', null], ['4000001', null, '605.00']] },
    { description: 'Cobro factura 2026/001', journal: 'BAN', lines: [['5720000', '1210.00', null], ['4300001', null, '1210.00']] },
  ];
  let last = null;
  for (const [i, e] of entries.entries()) {
    last = await mutate.createAccountingEntryUsingCodes(c, {
      description: e.description, date: `${year}-01-${String(10 + i).padStart(2, '0')}`, journalTypeCode: e.journal ?? 'GEN',
      accountingEntryLines: e.lines.map(([code, debit, credit]) => ({ subAccountCode: code, debitAmount: debit, creditAmount: credit })),
    });
  }
  await identity.createUser(organisationId, DEMO.email, DEMO.password, 'admin');
  const client = await identity.createClient('Demo integration', 'http://127.0.0.1:8080/callback', false);
  const token = await identity.issueToken(organisationId, DEMO.email, client.client_id, 'full_access');
  await service.daemon.waitFor(last?.position ?? null);
  return { organisationId, client, token };
}
