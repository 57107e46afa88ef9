/**
 * A worker thread that tokenizes chunk records for the index (chunk-index/tokenize.worker.ts). One thread
 * is enough: the index writes on one thread too, and tokenizing a chunk costs about a third of writing it.
 */
import { WorkerPool } from '../util/worker-pool.js';
import type { FieldSource } from './fields.js';

export interface Tokenizer {
  /** Per record, the FTS text of each token column (sqlite-schema.ts `columnTexts`): 7 strings cross
   *  the thread boundary instead of ~150 token strings, whose structured clone cost as much as tokenizing. */
  columnTexts(records: FieldSource[]): Promise<string[][]>;
  close(): Promise<void>;
}

export function createTokenizer(): Tokenizer {
  const pool = new WorkerPool({
    entry: 'chunk-index/tokenize.worker',
    size: 1,
    isolation: 'thread',
    maxHeapMb: 1024,
    defaultTimeoutMs: 120_000,
  });
  return {
    columnTexts: (records) => pool.run<string[][]>('column-texts', records),
    close: () => pool.close(),
  };
}
