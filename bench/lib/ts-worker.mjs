// Starts a TypeScript worker module (workerData.module, a file URL): worker threads do not get the
// parent's tsx loader, so the worker registers it before importing the module.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.module);
