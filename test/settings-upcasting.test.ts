/**
 * Payment means and terms stored before issue 17 (schemaVersion 1: a mean's code, name, BANK_TRANSFER and
 * bank details; lines REMAINDER, INVOICE_DATE, DELIVERY_DATE) read in Sage's shape: through the store, the
 * live projection, and the SharedSettings fold that decides the next command.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { SettingsAggregate } from '../commands/settings/aggregates.ts';
import { eventSchemaVersion } from '../eventstore/upcasters.ts';
import { SETTINGS_EVENTS } from '../eventqueue/settings/events.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { store, daemon, db } = api.service;
const stream = AggregateStore.streamId(SettingsAggregate.category, api.organisationId);
// A setting made now gives the stream and the metadata the old events are written with.
await api.service.mutate.createBusinessArea({ organisationId: api.organisationId }, { name: 'Retail' });
const [template] = await store.readStream(stream);

/** Written as a store of the first shape holds it: straight into es_events, at the stream's next revision. */
async function writeOld(type: string, data: object) {
  const { rows: [r] } = await db.pool.query(
    `WITH moved AS (UPDATE es_streams SET revision = revision + 1 WHERE stream_id = $1 RETURNING revision)
     INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata)
     SELECT $1, revision, $2, $3, $4, $5 FROM moved RETURNING transaction_id::text AS commit, global_position::text AS prepare`,
    [stream, randomUUID(), type, JSON.stringify(data), JSON.stringify({ ...template.metadata, causationId: randomUUID(), schemaVersion: 1 })],
  );
  return { commit: BigInt(r.commit), prepare: BigInt(r.prepare) };
}

const at = new Date().toISOString();
const meanId = randomUUID();
const termId = randomUUID();
const line = (order: number, condition: string, type: string, value: string) => ({ lineId: randomUUID(), order, condition, day: 30 * order, payDays: [], type, value, paymentMeanId: meanId });
await writeOld('PaymentMeanCreated', {
  paymentMeanId: meanId, code: 'TRF', name: '  Transferencia bancaria SEPA ', type: 'BANK_TRANSFER', iban: 'ES9121000418450200051332', bic: 'CAIXESBB',
  bankName: 'CaixaBank', accountingAccountId: null, disabled: false, at,
});
// A second mean whose name cuts to the same 20 characters (its code told them apart), made and deleted, and a
// term made and deleted: old deletions carried the code only.
const urgentId = randomUUID();
const goneTermId = randomUUID();
await writeOld('PaymentMeanCreated', {
  paymentMeanId: urgentId, code: 'TRU', name: 'Transferencia bancaria urgente', type: 'BANK_TRANSFER', iban: null, bic: null, bankName: null, accountingAccountId: null, disabled: true, at,
});
const goneMeanId = randomUUID();
await writeOld('PaymentMeanCreated', {
  paymentMeanId: goneMeanId, code: 'CHQ', name: 'Cheque', type: 'CHEQUE', iban: null, bic: null, bankName: null, accountingAccountId: null, disabled: false, at,
});
await writeOld('PaymentMeanDeleted', { paymentMeanId: goneMeanId, code: 'CHQ', at });
await writeOld('PaymentTermCreated', { paymentTermId: goneTermId, code: 'CONTADO', name: 'Al contado', disabled: false, at, lines: [line(1, 'INVOICE_DATE', 'REMAINDER', '100.00')] });
await writeOld('PaymentTermDeleted', { paymentTermId: goneTermId, code: 'CONTADO', at });
const last = await writeOld('PaymentTermCreated', {
  paymentTermId: termId, code: '30-60-90', name: '30/60/90', disabled: false, at,
  lines: [line(1, 'INVOICE_DATE', 'PERCENTAGE', '30.00'), line(2, 'DELIVERY_DATE', 'PERCENTAGE', '30.00'), line(3, 'END_OF_MONTH', 'REMAINDER', '40.00')],
});

t.test('the store reads them in the current shape', async (t) => {
  t.equal(eventSchemaVersion('PaymentMeanCreated'), 2);
  const events = await store.readStream(stream);
  const mean = events.find((e) => e.type === 'PaymentMeanCreated');
  t.same(mean?.data, {
    paymentMeanId: meanId, description: 'Transferencia bancar', type: 'UNDEFINED', inactive: false, at,
    code: 'TRF', iban: 'ES9121000418450200051332', bic: 'CAIXESBB', bankName: 'CaixaBank', accountingAccountId: null,
  }, 'the name trimmed and cut to 20: the description; the code, bank details and account kept');
  const meanDeleted = events.find((e) => e.type === 'PaymentMeanDeleted');
  t.same(meanDeleted?.data, { paymentMeanId: goneMeanId, code: 'CHQ', description: 'CHQ', at }, 'an old deletion of a mean: named by its code');
  const termDeleted = events.find((e) => e.type === 'PaymentTermDeleted');
  t.same(termDeleted?.data, { paymentTermId: goneTermId, code: 'CONTADO', name: 'CONTADO', at }, 'an old deletion of a term: named by its code');
  const queued = (e: (typeof events)[number]) => (SETTINGS_EVENTS as Record<string, (d: unknown) => { id: string }>)[e.type](e.data).id;
  const goneMean = events.filter((e) => e.type.startsWith('PaymentMean') && e.data.paymentMeanId === goneMeanId);
  t.same(goneMean.map(queued), ['CHQ', 'CHQ'], "the queue names the mean's creation and deletion alike");
  const goneTerm = events.filter((e) => e.type.startsWith('PaymentTerm') && e.data.paymentTermId === goneTermId);
  t.same(goneTerm.map(queued), ['CONTADO', 'CONTADO'], "the queue names the term's creation and deletion alike");
  const term = events.find((e) => e.type === 'PaymentTermCreated' && e.data.paymentTermId === termId);
  t.same((term?.data.lines as { condition: string; type: string }[]).map((l) => [l.condition, l.type]), [
    ['DAY_OF_PAYMENT', 'PERCENTAGE'], ['DAY_OF_PAYMENT', 'PERCENTAGE'], ['END_OF_MONTH', 'REMAINING_AMOUNT'],
  ]);
  const { rows } = await db.pool.query(`SELECT data::jsonb->>'name' AS name FROM es_events WHERE event_type = 'PaymentMeanCreated' ORDER BY global_position LIMIT 1`);
  t.same(rows, [{ name: '  Transferencia bancaria SEPA ' }], 'the stored event stays as it was written');
});

t.test('the read models and the next decisions see them in the current shape', async (t) => {
  t.ok(await daemon.waitFor(last), 'projected');
  const r = await api.gql(`{ paymentMeans(order: [{ code: ASC }]) { nodes { id code description type inactive iban bic bankName } } paymentTerms { nodes { code name lines { order condition type value paymentMean { description } } } } }`);
  t.equal(r.errors, undefined);
  t.same(r.data.paymentMeans.nodes, [
    { id: meanId, code: 'TRF', description: 'Transferencia bancar', type: 'UNDEFINED', inactive: false, iban: 'ES9121000418450200051332', bic: 'CAIXESBB', bankName: 'CaixaBank' },
    { id: urgentId, code: 'TRU', description: 'Transferencia bancar', type: 'UNDEFINED', inactive: true, iban: null, bic: null, bankName: null },
  ], 'the deleted one gone, the two whose names cut alike told apart by their codes');
  t.equal(r.data.paymentTerms.nodes.length, 1, 'the deleted term gone');
  const rest = await api.rest('/payment_means');
  t.match([...rest.body.$items].sort((a, b) => a.code.localeCompare(b.code)), [{ code: 'TRF', iban: 'ES9121000418450200051332', bic: 'CAIXESBB', bank_name: 'CaixaBank' }, { code: 'TRU' }], 'REST shows them too');
  const again = await api.gql(`mutation { createPaymentMean(input: { description: "Cheque", code: "CHQ" }) { id } }`);
  t.equal(again.errors, undefined, "the deleted mean's description and code are free again");
  const codeTaken = await api.gql(`mutation { createPaymentMean(input: { description: "Otra", code: "tru" }) { id } }`);
  t.equal(codeTaken.errors?.[0]?.extensions?.code, 'global.businessErrors.sharedSettingAlreadyExists', "the old mean's code is taken");
  t.same(r.data.paymentTerms.nodes[0].lines.map((l: any) => [l.order, l.condition, l.type, l.value, l.paymentMean.description]), [
    [1, 'DAY_OF_PAYMENT', 'PERCENTAGE', '30.00', 'Transferencia bancar'], [2, 'DAY_OF_PAYMENT', 'PERCENTAGE', '30.00', 'Transferencia bancar'],
    [3, 'END_OF_MONTH', 'REMAINING_AMOUNT', '40.00', 'Transferencia bancar'],
  ]);
  const taken = await api.gql(`mutation { createPaymentMean(input: { description: "transferencia BANCAR" }) { id } }`);
  t.equal(taken.errors?.[0]?.extensions?.code, 'global.businessErrors.sharedSettingAlreadyExists', 'the old mean holds its description');
  const inUse = await api.gql(`mutation($id: UUID!) { deletePaymentMean(input: { id: $id }) { id } }`, { id: meanId });
  t.equal(inUse.errors?.[0]?.extensions?.code, 'global.businessErrors.sharedSettingInUse', 'the old term refers to it');
});
