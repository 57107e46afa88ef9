/**
 * Chat over knowledge bases that are all `table`-parsed (API.md §19.7), as RAGFlow's `use_sql`: the
 * chat model writes one SQL SELECT over a table whose columns are the KBs' field map; the statement
 * runs in a throwaway database (search/table-sql); an error gets the model one retry with the error;
 * the result rows become a Markdown table whose Source column cites each row's chunk. Null when the
 * path does not apply or yields nothing useful — the caller then answers through retrieval.
 */
import type { ChatModel } from '../models/ports.js';
import { sqlTypeOf } from '../search/table-sql/statement.js';
import type { TableSchema } from '../search/table-sql/table-query.js';
import type { ChatServices, TableQueryResult } from './services.js';
import type { RefChunk, StoredReference } from './types.js';

/** The table name the model is told (the in-memory database has only this table). */
export const TABLE_NAME = 'kb_rows';

const SYSTEM =
  "You are a Database Administrator. You need to check the fields of the following table based on the user's question and write the SQL that answers it. The database is SQLite.";

const TYPE_WORDS = { INTEGER: 'integer', REAL: 'number', TEXT: 'text' } as const;

function fieldLines(schema: TableSchema): string {
  const lines = ['doc_id: id of the source document (text)', 'docnm_kwd: name of the source document (text)'];
  for (const [key, header] of Object.entries(schema.fieldMap)) {
    const type = key.endsWith('_dt')
      ? 'date-time text "YYYY-MM-DD HH:MM:SS"'
      : key.endsWith('_kwd')
        ? 'keywords, comma-separated text'
        : TYPE_WORDS[sqlTypeOf(key)];
    lines.push(`${key}: ${header} (${type})`);
  }
  return lines.join('\n');
}

function userPrompt(schema: TableSchema, question: string, failed?: { sql: string; error: string }): string {
  const base = [
    `Table name: ${TABLE_NAME};`,
    'Table of database fields are as follows:',
    fieldLines(schema),
    '',
    'Question are as follows:',
    question,
    'Please write the SQL, only SQL, without any other explanations or text.',
  ];
  if (!failed) return base.join('\n');
  return [
    ...base,
    '',
    'The SQL you provided last time is as follows:',
    failed.sql,
    '',
    'Error issued by database as follows:',
    failed.error,
    '',
    'Please correct the error and write SQL again, only SQL, without any other explanations or text.',
  ].join('\n');
}

async function writeSql(model: ChatModel, prompt: string, signal?: AbortSignal): Promise<string> {
  const res = await model.complete(
    [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: prompt },
    ],
    { temperature: 0.06, signal },
  );
  return res.text;
}

/** Header of a result column: the field's header without synonyms or enumeration, else the name. */
function headerOf(schema: TableSchema, column: string): string {
  const header = schema.fieldMap[column];
  return header ? header.replace(/(\/.*|[(（][^()（）]*[)）])\s*$/, '').trim() || header : column;
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return ' ';
  return String(v)
    .replace(/[\r\n]+/g, ' ')
    .replace(/\|/g, '\\|')
    .replace(/ (\d{2}:\d{2}:\d{2})$/, (m, t: string) => (t === '00:00:00' ? '' : m));
}

const HIDDEN = new Set(['chunk_id', 'doc_id', '__chunk_id']);

export interface TableAnswer {
  answer: string;
  reference: StoredReference;
  prompt: string;
}

/** The Markdown answer and its reference from a successful statement; null when it has no rows. */
function present(schema: TableSchema, ran: TableQueryResult, quote: boolean): TableAnswer | null {
  if (!ran.outcome.ok || ran.outcome.rows.length === 0) return null;
  const { columns, rows, rowIdColumn, truncated } = ran.outcome;
  const shown = columns.map((c, i) => i).filter((i) => !HIDDEN.has(columns[i]) && columns[i] !== 'docnm_kwd');
  const chunks: RefChunk[] = [];
  const cite = new Map<string, number>();
  const lines = rows.map((row) => {
    const cells = shown.map((i) => cellText(row[i]));
    const chunk = rowIdColumn >= 0 ? ran.chunks.get(String(row[rowIdColumn])) : undefined;
    if (chunk) {
      if (!cite.has(chunk.chunk_id)) {
        cite.set(chunk.chunk_id, chunks.length);
        chunks.push(chunk);
      }
      cells.push(quote ? `${chunk.docnm_kwd} [ID:${cite.get(chunk.chunk_id)}]` : chunk.docnm_kwd);
    }
    return `|${cells.join('|')}|`;
  });
  const useful = lines.filter((l) => l.replace(/[\s|]+/g, '') !== '');
  if (useful.length === 0 || shown.length === 0) return null;
  const source = chunks.length > 0;
  const header = `|${shown.map((i) => headerOf(schema, columns[i])).join('|')}${source ? '|Source' : ''}|`;
  const rule = `|${[...shown, ...(source ? [0] : [])].map(() => '------').join('|')}|`;
  const more = truncated ? `\n\nOnly the first ${rows.length} rows are shown.` : '';
  const docs = new Map<string, { doc_id: string; doc_name: string; count: number }>();
  for (const c of chunks) {
    const d = docs.get(c.doc_id) ?? { doc_id: c.doc_id, doc_name: c.docnm_kwd, count: 0 };
    d.count++;
    docs.set(c.doc_id, d);
  }
  return {
    answer: [header, rule, ...useful].join('\n') + more,
    reference: { total: chunks.length, chunks, doc_aggs: [...docs.values()] },
    prompt: '',
  };
}

/**
 * The structured answer to `question` when every KB is a table KB with a field map; null to fall back
 * to retrieval (no field map, no SQL, two failed statements, a refused statement, or no rows).
 */
export async function answerFromTables(
  svc: ChatServices,
  model: ChatModel,
  tenantId: string,
  kbIds: string[],
  question: string,
  opts: { quote: boolean; signal?: AbortSignal },
): Promise<TableAnswer | null> {
  const schema = await svc.tableSchema(tenantId, kbIds);
  if (!schema) return null;
  let prompt = userPrompt(schema, question);
  let ran: TableQueryResult | null = null;
  for (let attempt = 0; attempt < 2; attempt++) {
    const sql = await writeSql(model, prompt, opts.signal);
    ran = await svc.queryTable(schema, TABLE_NAME, sql, opts.signal);
    if (!ran || ran.outcome.ok || ran.outcome.refused) break;
    prompt = userPrompt(schema, question, { sql: ran.sql, error: ran.outcome.error });
  }
  if (!ran) return null;
  const answer = present(schema, ran, opts.quote);
  if (!answer) return null;
  answer.prompt = [SYSTEM, '', prompt, '', '### SQL:', ran.sql].join('\n');
  return answer;
}
