/**
 * ExeSQL (AGENTS.md §10.5): runs model-written SQL on the configured database. References in `sql`
 * are rendered; the text is split on `;`, code fences and `[ID:n]` markers removed; each statement
 * returns at most `max_records` rows as a Markdown table (`formalized_content`) and JSON (`json`).
 * A statement with no rows adds `{"content": "No record in the database!"}` and stops the rest.
 */
import type { ToolComponent, ToolMeta } from '@lectern/agent-core';
import type { ToolDeps } from '../context.js';
import { timeLimitMs } from '../context.js';
import { markdownTable } from '../common/markdown.js';
import { errorText, int, text } from '../common/values.js';
import { DB_TYPES, isDbType, openSession, type DbSession, type DbTarget } from './drivers.js';

const META: ToolMeta = {
  name: 'execute_sql',
  description: 'This is a tool that can execute SQL.',
  parameters: {
    sql: {
      type: 'string',
      description: 'The SQL needs to be executed.',
      default: '{sys.query}',
      required: true,
    },
  },
};

const NO_RECORD = { content: 'No record in the database!' };

export function targetOf(params: Record<string, unknown>): DbTarget {
  return {
    dbType: text(params.db_type || 'mysql').toLowerCase() as DbTarget['dbType'],
    host: text(params.host).trim(),
    port: int(params.port, 3306),
    database: text(params.database).trim(),
    username: text(params.username).trim(),
    password: text(params.password),
  };
}

export function checkExeSql(params: Record<string, unknown>): string[] {
  const t = targetOf(params);
  const reasons: string[] = [];
  if (!isDbType(t.dbType))
    reasons.push(`\`db_type\` must be one of ${DB_TYPES.join(', ')} (got "${text(params.db_type)}")`);
  for (const key of ['database', 'username', 'host'] as const)
    if (!t[key]) reasons.push(`\`${key}\` is required`);
  if (!(t.port > 0)) reasons.push('`port` must be a positive integer');
  if (params.max_records !== undefined && int(params.max_records, 0) <= 0)
    reasons.push('`max_records` must be a positive integer');
  if (t.database === 'rag_flow' && (t.host === 'ragflow-mysql' || t.password === 'infini_rag_flow'))
    reasons.push('For the security reason, it dose not support database named rag_flow.');
  return reasons;
}

/** `;`-separated statements without code fences and citation markers; blank ones dropped. */
export function splitStatements(sql: string): string[] {
  return sql
    .split(';')
    .map((s) =>
      s
        .replace(/```\w*/g, '')
        .replace(/\[ID:\s*\d+\]/g, '')
        .trim(),
    )
    .filter(Boolean);
}

export function exeSqlTool(deps: ToolDeps): ToolComponent {
  return {
    componentName: 'ExeSQL',
    meta: () => META,
    // Unlike RAGFlow, an empty password is allowed: a database may trust the caller (local, peer auth).
    check: checkExeSql,
    async invoke(call) {
      const sql = await call.render(text(call.args.sql ?? call.params.sql));
      const statements = splitStatements(sql);
      if (statements.length === 0) throw new Error('SQL for `ExeSQL` MUST not be empty.');
      const target = targetOf(call.params);
      if (!isDbType(target.dbType)) throw new Error('Unsupported database type.');
      const maxRows = Math.max(1, int(call.params.max_records, 1024));
      const statementTimeoutMs = timeLimitMs(deps, 60);
      let session: DbSession;
      try {
        session = await openSession(target, {
          policy: deps.policy,
          statementTimeoutMs,
          connectTimeoutMs: Math.min(statementTimeoutMs, 10_000),
        });
      } catch (err) {
        throw new Error(`Database Connection Failed! \n${errorText(err)}`);
      }
      const json: unknown[] = [];
      const tables: string[] = [];
      try {
        for (const statement of statements) {
          const result = await session.run(statement, maxRows);
          if (result.rowCount === 0) {
            json.push(NO_RECORD);
            tables.push(markdownTable([NO_RECORD]));
            break;
          }
          json.push(result.rows);
          tables.push(markdownTable(result.rows));
        }
      } catch (err) {
        throw new Error(errorText(err));
      } finally {
        await session.close();
      }
      const formalized = tables.join('\n\n');
      call.setOutput('json', json);
      call.setOutput('formalized_content', formalized);
      return formalized;
    },
  };
}
