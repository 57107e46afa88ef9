/**
 * Connections to the databases ExeSQL queries (AGENTS.md §10.5): MySQL / MariaDB / OceanBase through
 * mysql2, PostgreSQL through pg, SQL Server through tedious (mssql.ts: not tested against a live
 * SQL Server here). The host is checked by the outbound guard first (a private or
 * loopback database needs LECTERN_SSRF_ALLOW) and the connection goes to the checked address. Each
 * statement runs under a time limit (server-side where the database has one, and client-side) and
 * returns at most `maxRows` rows.
 */
import mysql from 'mysql2/promise';
import pg from 'pg';
import { cleanRow, pinnedAddress } from './cells.js';
import { openMssql } from './mssql.js';
import type { DbSession, DbTarget, SessionOptions } from './types.js';

export { DB_TYPES, isDbType } from './types.js';
export type { DbSession, DbTarget, DbType, SessionOptions, StatementResult } from './types.js';

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
  if (t.dbType === 'postgres') return openPostgres(t, o);
  if (t.dbType === 'mssql') return openMssql(t, o);
  return openMysql(t, o);
}

/** Opens and closes a connection (`POST /v1/canvas/test_db_connect`); SQL Server also runs `SELECT 1`. */
export async function testConnection(t: DbTarget, o: SessionOptions): Promise<void> {
  const s = await openSession(t, o);
  try {
    if (t.dbType === 'mssql') await s.run('SELECT 1', 1);
  } finally {
    await s.close();
  }
}
