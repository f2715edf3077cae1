import t from 'tap';
import { eventStoreContract } from './helpers/eventstore-contract.ts';

const url = process.env.KURRENTDB_URL;
if (!url) {
  t.pass('KURRENTDB_URL not set: the KurrentDB adapter contract run is skipped (no server on this machine)');
} else {
  const { KurrentDbEventStore } = await import('../eventstore/kurrentdb/store.ts');
  const stores: { close(): Promise<void> }[] = [];
  t.teardown(() => Promise.all(stores.map((s) => s.close())));
  eventStoreContract(t, async () => {
    const store = await KurrentDbEventStore.connect(url);
    stores.push(store);
    return store;
  });
}
