import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPolicy } from '../../net/index.js';
import { runTool, testDeps } from '../testing/invoke.js';
import { exeSqlTool } from './tool.js';

/** ExeSQL against the local MariaDB (127.0.0.1:3306 root) and PostgreSQL (127.0.0.1:5432 postgres, trust). */
const DB = 'lectern_exesql_test';
const SEED = [
  'CREATE TABLE city (id INT PRIMARY KEY, name VARCHAR(40), population DECIMAL(12,2), founded DATE)',
  "INSERT INTO city VALUES (1, 'Oslo', 709037.5, '1040-01-01'), (2, 'Bergen', 285911, '1070-01-01'), (3, 'Tromsø', 77544.25, '1794-01-01')",
];
const targets = {
  mariadb: {
    db_type: 'mariadb',
    host: '127.0.0.1',
    port: 3306,
    database: DB,
    username: 'root',
    password: '',
  },
  postgres: {
    db_type: 'postgres',
    host: '127.0.0.1',
    port: 5432,
    database: DB,
    username: 'postgres',
    password: '',
  },
};

beforeAll(async () => {
  const my = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
  await my.query(`DROP DATABASE IF EXISTS ${DB}`);
  await my.query(`CREATE DATABASE ${DB} CHARACTER SET utf8mb4`);
  await my.query(`USE ${DB}`);
  for (const s of SEED) await my.query(s);
  await my.end();
  const admin = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB}`);
  await admin.end();
  const client = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: DB });
  await client.connect();
  for (const s of SEED) await client.query(s);
  await client.end();
});

afterAll(async () => {
  const my = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
  await my.query(`DROP DATABASE IF EXISTS ${DB}`);
  await my.end();
  const admin = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.end();
});

describe.each(Object.entries(targets))('ExeSQL on %s', (kind, target) => {
  const tool = exeSqlTool(testDeps({}, { timeoutMs: 1500 }));

  it('returns the rows as a Markdown table and JSON, statements split on ;, fences and markers removed', async () => {
    const run = await runTool(tool, {
      params: { ...target, sql: '{sys.query}' },
      refs: {
        'sys.query':
          '```sql\nSELECT id, name, population, founded FROM city WHERE id < 3 ORDER BY id [ID:4];\nSELECT count(*) AS n FROM city;\n```',
      },
    });
    expect(run.error).toBeUndefined();
    expect(run.outputs.json).toEqual([
      [
        { id: 1, name: 'Oslo', population: 709037.5, founded: '1040-01-01' },
        { id: 2, name: 'Bergen', population: 285911, founded: '1070-01-01' },
      ],
      [{ n: 3 }],
    ]);
    expect(run.outputs.formalized_content).toBe(
      '| id | name | population | founded |\n|:---|:---|:---|:---|\n| 1 | Oslo | 709037.500000 | 1040-01-01 |\n| 2 | Bergen | 285911 | 1070-01-01 |\n\n| n |\n|:---|\n| 3 |',
    );
  });

  it('caps rows at max_records and stops at a statement with no rows', async () => {
    const run = await runTool(tool, {
      params: { ...target, max_records: 2 },
      args: {
        sql: "SELECT name FROM city ORDER BY id; SELECT name FROM city WHERE name = 'Nowhere'; SELECT 1 AS never",
      },
    });
    expect(run.outputs.json).toEqual([
      [{ name: 'Oslo' }, { name: 'Bergen' }],
      { content: 'No record in the database!' },
    ]);
  });

  it('reports SQL errors, a statement over the time limit, bad credentials and an empty query', async () => {
    expect((await runTool(tool, { params: target, args: { sql: 'SELECT nope FROM city' } })).error).toMatch(
      /nope/,
    );
    const slow = kind === 'postgres' ? 'SELECT pg_sleep(5)' : 'SELECT SLEEP(5) AS s';
    const started = Date.now();
    const timed = await runTool(tool, { params: target, args: { sql: slow } });
    expect(timed.error).toMatch(/timeout|interrupted|cancel|max_statement_time|execution time/i);
    expect(Date.now() - started).toBeLessThan(4500);
    const denied = await runTool(tool, {
      params: { ...target, username: 'nobody_here', password: 'wrong' },
      args: { sql: 'SELECT 1' },
    });
    expect(denied.error).toMatch(/^Database Connection Failed! \n/);
    expect((await runTool(tool, { params: target, args: { sql: ' ; ' } })).error).toBe(
      'SQL for `ExeSQL` MUST not be empty.',
    );
  });

  it('refuses a loopback database without LECTERN_SSRF_ALLOW', async () => {
    const strict = exeSqlTool(testDeps({}, { policy: createPolicy({}) }));
    const run = await runTool(strict, { params: target, args: { sql: 'SELECT 1' } });
    expect(run.error).toMatch(/Database Connection Failed! \n.*LECTERN_SSRF_ALLOW/);
  });
});

describe('ExeSQL configuration check', () => {
  const tool = exeSqlTool(testDeps());
  it('names each missing or wrong setting', () => {
    expect(tool.check?.({ db_type: 'sqlite', port: 0 })).toEqual([
      '`db_type` must be one of mysql, mariadb, oceanbase, postgres, mssql (got "sqlite")',
      '`database` is required',
      '`username` is required',
      '`host` is required',
      '`port` must be a positive integer',
    ]);
    expect(tool.check?.(targets.mariadb)).toEqual([]);
  });
});
