/** A worker thread that computes the PostgreSQL index's stored text of records (pg-text.worker.ts). */
import { WorkerPool } from '../util/worker-pool.js';
import type { FieldSource } from './fields.js';
import type { StoredText } from './pg-text.js';

export interface StoredTextThread {
  storedTexts(records: FieldSource[]): Promise<StoredText[]>;
  close(): Promise<void>;
}

export function createStoredTextThread(): StoredTextThread {
  const pool = new WorkerPool({
    entry: 'chunk-index/pg-text.worker',
    size: 1,
    isolation: 'thread',
    maxHeapMb: 1024,
    defaultTimeoutMs: 120_000,
  });
  return {
    storedTexts: (records) => pool.run<StoredText[]>('stored-texts', records),
    close: () => pool.close(),
  };
}
