/**
 * Connections to the databases ExeSQL queries (AGENTS.md §10.5): MySQL / MariaDB / OceanBase through
 * mysql2, PostgreSQL through pg. The host is checked by the outbound guard first (a private or
 * loopback database needs LECTERN_SSRF_ALLOW) and the connection goes to the checked address. Each
 * statement runs under a time limit (server-side where the database has one, and client-side) and
 * returns at most `maxRows` rows.
 */
import mysql from 'mysql2/promise';
import pg from 'pg';
import { checkHost, type OutboundPolicy } from '../../net/index.js';

export const DB_TYPES = ['mysql', 'mariadb', 'oceanbase', 'postgres'] as const;
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

/** Dates as `YYYY-MM-DD` (with the time when it is not midnight), NaN/±∞ as null, big integers as numbers when exact. */
function cellValue(v: unknown): unknown {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return null;
    const iso = v.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
  }
  if (typeof v === 'number' && !Number.isFinite(v)) return null;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  return v;
}

function cleanRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = cellValue(v);
  return out;
}

async function pinnedAddress(policy: OutboundPolicy, host: string): Promise<string> {
  const target = await checkHost(policy, host);
  return target.addresses[0].address;
}

async function openMysql(t: DbTarget, o: SessionOptions): Promise<DbSession> {
  const conn = await mysql.createConnection({
    host: await pinnedAddress(o.policy, t.host),
    port: t.port,
    user: t.username,
    password: t.password,
    database: t.database,
    connectTimeout: o.connectTimeoutMs,
    decimalNumbers: true,
    supportBigNumbers: true,
    dateStrings: false,
    timezone: 'Z',
    multipleStatements: false,
    charset: t.dbType === 'oceanbase' ? 'UTF8MB4_GENERAL_CI' : undefined,
  });
  // MariaDB's server-side statement limit (seconds); MySQL has max_execution_time (ms, SELECT only).
  const seconds = Math.max(1, Math.ceil(o.statementTimeoutMs / 1000));
  await conn
    .query(`SET SESSION max_statement_time = ${seconds}`)
    .catch(() => conn.query(`SET SESSION max_execution_time = ${seconds * 1000}`).catch(() => undefined));
  return {
    async run(sql, maxRows) {
      const [result] = await conn.query({ sql, timeout: o.statementTimeoutMs + 1000 });
      if (Array.isArray(result)) {
        const rows = (result as Array<Record<string, unknown>>).slice(0, maxRows).map(cleanRow);
        return { rows, rowCount: result.length };
      }
      return { rows: [], rowCount: (result as mysql.ResultSetHeader).affectedRows ?? 0 };
    },
    close: () => conn.end().catch(() => conn.destroy()),
  };
}

// NUMERIC and INT8 arrive as text from pg; the table shows them as numbers (RAGFlow: Decimal → float).
const PG_NUMERIC = 1700;
const PG_INT8 = 20;

async function openPostgres(t: DbTarget, o: SessionOptions): Promise<DbSession> {
  const client = new pg.Client({
    host: await pinnedAddress(o.policy, t.host),
    port: t.port,
    user: t.username,
    password: t.password,
    database: t.database,
    connectionTimeoutMillis: o.connectTimeoutMs,
    statement_timeout: o.statementTimeoutMs,
    query_timeout: o.statementTimeoutMs + 1000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_NUMERIC || oid === PG_INT8
          ? (v: string) => (Number.isSafeInteger(Number(v)) || oid === PG_NUMERIC ? Number(v) : v)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  client.on('error', () => undefined); // a dropped connection fails the running query; nothing else to do
  await client.connect();
  return {
    async run(sql, maxRows) {
      const res = await client.query(sql);
      const rows = (res.rows as Array<Record<string, unknown>>).slice(0, maxRows).map(cleanRow);
      return {
        rows,
        rowCount: res.command === 'SELECT' ? res.rows.length : (res.rowCount ?? res.rows.length),
      };
    },
    close: () => client.end().catch(() => undefined),
  };
}

export async function openSession(t: DbTarget, o: SessionOptions): Promise<DbSession> {
  return t.dbType === 'postgres' ? openPostgres(t, o) : openMysql(t, o);
}

/** Opens and closes a connection (`POST /v1/canvas/test_db_connect`). */
export async function testConnection(t: DbTarget, o: SessionOptions): Promise<void> {
  const s = await openSession(t, o);
  await s.close();
}
