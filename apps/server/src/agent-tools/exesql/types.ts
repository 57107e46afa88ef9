/** The database kinds and connection shapes of ExeSQL (drivers.ts, mssql.ts). */
import type { OutboundPolicy } from '../../net/index.js';

export const DB_TYPES = ['mysql', 'mariadb', 'oceanbase', 'postgres', 'mssql'] as const;
export type DbType = (typeof DB_TYPES)[number];

export function isDbType(v: string): v is DbType {
  return (DB_TYPES as readonly string[]).includes(v);
}

export interface DbTarget {
  dbType: DbType;
  host: string;
  port: number;
  database: string;
  username: string;
  password: string;
}

export interface StatementResult {
  rows: Array<Record<string, unknown>>;
  /** rows returned by a query, rows changed by a write */
  rowCount: number;
}

export interface DbSession {
  run(sql: string, maxRows: number): Promise<StatementResult>;
  close(): Promise<void>;
}

export interface SessionOptions {
  policy: OutboundPolicy;
  /** per statement */
  statementTimeoutMs: number;
  connectTimeoutMs: number;
}
