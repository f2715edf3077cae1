// A rebuild worker thread's entry. Node 20 does not pass the parent's --import hooks on to worker
// threads, so this registers tsx itself before it loads the TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./rebuild-worker.ts');
