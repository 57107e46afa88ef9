/**
 * ExeSQL on Microsoft SQL Server through tedious (the pure-JavaScript TDS driver; RAGFlow uses ODBC
 * Driver 17).
 *
 * NOT TESTED AGAINST A LIVE SQL SERVER: none is available where this project is built and tested.
 * What is tested (exesql/mssql.test.ts): a closed port fails with a clear error within the time
 * limit, and the TDS pre-login packet (type 0x12) is really sent to the server's address.
 *
 * - The host goes through the outbound guard and the connection to the checked address (the name is
 *   kept for TLS as `serverName`).
 * - SQL authentication (user name and password). The login is encrypted (`encrypt: true`); the
 *   server's certificate is trusted as it is (`trustServerCertificate`), as most SQL Servers have a
 *   self-signed one — like ODBC's `TrustServerCertificate=yes`.
 * - Each statement is sent as a batch under `requestTimeout` (the statement time limit: tedious
 *   cancels it with an attention packet). Rows past `maxRows` are not kept: the request is cancelled
 *   once the cap is reached.
 * - Values: DATE/DATETIME arrive as Date (shown as `YYYY-MM-DD`), DECIMAL/NUMERIC as numbers, BIGINT
 *   as text (kept when not exact as a number), binary as text; cells are cleaned like the other drivers.
 */
import { Connection, Request, type ConnectionConfiguration } from 'tedious';
import { cleanRow, pinnedAddress } from './cells.js';
import type { DbSession, DbTarget, SessionOptions, StatementResult } from './types.js';

interface ColumnValue {
  metadata: { colName: string };
  value: unknown;
}

/** BIGINT comes as a decimal string: a number when exact, else the text. */
function bigintText(v: unknown): unknown {
  if (typeof v === 'string' && /^-?\d+$/.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : v;
  }
  return v;
}

function rowOf(columns: ColumnValue[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  columns.forEach((c, i) => {
    const name = c.metadata.colName || `column_${i}`;
    row[name] = bigintText(c.value);
  });
  return cleanRow(row);
}

export function mssqlConfig(t: DbTarget, address: string, o: SessionOptions): ConnectionConfiguration {
  return {
    server: address,
    authentication: { type: 'default', options: { userName: t.username, password: t.password } },
    options: {
      port: t.port,
      database: t.database || undefined,
      connectTimeout: o.connectTimeoutMs,
      requestTimeout: o.statementTimeoutMs,
      cancelTimeout: 5000,
      encrypt: true,
      trustServerCertificate: true,
      serverName: t.host,
      useColumnNames: false,
      rowCollectionOnRequestCompletion: false,
    },
  };
}

function connect(config: ConnectionConfiguration, timeoutMs: number): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const conn = new Connection(config);
    let settled = false;
    // tedious has its own connect timeout; this one also covers the DNS-free path to an address
    // that takes the TCP connection but never answers the pre-login.
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      conn.close();
      reject(new Error(`Failed to connect to ${config.server}:${config.options?.port} in ${timeoutMs}ms`));
    }, timeoutMs + 1000);
    conn.on('error', () => undefined); // errors after the connect are reported by the running request
    conn.connect((err) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        conn.close();
        reject(err);
      } else resolve(conn);
    });
  });
}

function runStatement(conn: Connection, sql: string, maxRows: number): Promise<StatementResult> {
  return new Promise((resolve, reject) => {
    const rows: Array<Record<string, unknown>> = [];
    let resultSet = false;
    let seen = 0;
    let capped = false;
    const request = new Request(sql, (err, rowCount) => {
      if (err && !capped) return reject(err);
      resolve({ rows, rowCount: resultSet ? seen : (rowCount ?? 0) });
    });
    request.on('columnMetadata', () => {
      resultSet = true;
    });
    request.on('row', (columns: ColumnValue[]) => {
      seen += 1;
      if (rows.length < maxRows) rows.push(rowOf(columns));
      else if (!capped) {
        // Enough rows: stop the server sending more (the callback then reports the cancel).
        capped = true;
        conn.cancel();
      }
    });
    conn.execSqlBatch(request);
  });
}

export async function openMssql(t: DbTarget, o: SessionOptions): Promise<DbSession> {
  const address = await pinnedAddress(o.policy, t.host);
  const conn = await connect(mssqlConfig(t, address, o), o.connectTimeoutMs);
  return {
    run: (sql, maxRows) => runStatement(conn, sql, maxRows),
    close: () =>
      new Promise<void>((resolve) => {
        if (conn.closed) return resolve();
        conn.once('end', () => resolve());
        conn.close();
      }),
  };
}
