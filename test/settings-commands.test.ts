/**
 * The settings and product commands on the generic handler keep the ids they always derived from an
 * idempotency key (the kinds 'business-area', 'payment-term', 'payment-term-line', 'product'...), so a
 * command retried across the upgrade names the same things; a retry appends nothing and answers the same.
 */
import t, { type TAP } from 'tap';
import { randomUUID } from 'node:crypto';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { derivedId } from '../domain/ids.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, store } = api.service;
const organisationId = api.organisationId;

/** Runs the mutation twice under one key: the second is the retry. */
async function retried(t: Pick<TAP, 'equal' | 'same'>, name: string, input: object) {
  const ctx = { organisationId, commandId: randomUUID() };
  const first = await mutate[name](ctx, input);
  const before = await api.eventCount();
  const again = await mutate[name](ctx, input);
  t.same(again.id, first.id, `${name}: the retry answers the same id`);
  t.equal(await api.eventCount(), before, `${name}: the retry appends nothing`);
  return { id: first.id, key: ctx.commandId };
}

t.test('ids derive from the key with the same kinds as before', async (t) => {
  for (const [name, kind, input] of [
    ['createBusinessArea', 'business-area', { name: 'Retail' }],
    ['createJobArea', 'job-area', { name: 'Sales' }],
    ['createPaymentMean', 'payment-mean', { description: 'Transfer' }],
    ['createProduct', 'product', { code: 'P1', name: 'Widget', category: 'PRODUCT' }],
  ] as const) {
    const { id, key } = await retried(t, name, input);
    t.equal(id, derivedId(key, kind, '0'), `${name}: ${kind}`);
  }
  const lines = [{ condition: 'DAY_OF_PAYMENT', day: 30, type: 'PERCENTAGE', value: '50', order: 1 }, { condition: 'DAY_OF_PAYMENT', day: 60, type: 'REMAINING_AMOUNT', order: 9999 }];
  const { id, key } = await retried(t, 'createPaymentTerm', { name: '30/60', lines });
  t.equal(id, derivedId(key, 'payment-term', '0'));
  const events = await store.readStream(AggregateStore.streamId('SharedSettings', organisationId));
  const created = events.find((e) => e.type === 'PaymentTermCreated' && (e.data as { paymentTermId: string }).paymentTermId === id);
  t.same((created?.data as { lines: { lineId: string }[] }).lines.map((l) => l.lineId), [0, 1].map((n) => derivedId(key, 'payment-term-line', String(n))), 'line ids: payment-term-line, by position');
});

t.test('a deletion answers the id it was given, and its retry appends nothing', async (t) => {
  for (const [create, remove, input] of [
    ['createBusinessArea', 'deleteBusinessArea', { name: 'Export' }],
    ['createPaymentMean', 'deletePaymentMean', { description: 'Cash' }],
    ['createProduct', 'deleteProduct', { code: 'P2', name: 'Service', category: 'SERVICE' }],
  ] as const) {
    const { id } = await mutate[create]({ organisationId }, input);
    t.equal((await retried(t, remove, { id })).id, id, remove);
  }
});
