/**
 * The server writes progress-log lines only through the shared catalogue
 * (`packages/shared/src/progress-messages.ts`): a sentence typed straight into a report call would be
 * shown untranslated in the web app. This scans the server for progress reports, parser progress and
 * notes, task-log lines and KB-job errors whose message is a string literal.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const serverSrc = path.join(root, 'apps/server/src');
/** Where progress logs are written: ingestion, the task queue and the KB jobs. */
const AREAS = ['ingest', 'queue', 'graph', 'raptor'];

/** Up to the opening quote of a string argument. */
const STRING = String.raw`\s*(?=[\x60'"])`;
/** Calls that write a log line, up to where their message argument starts. */
const LOG_CALLS: Array<[string, RegExp]> = [
  ['progress.report', new RegExp(String.raw`\.report\(\s*[^,()]*,${STRING}`, 'g')],
  ['onProgress', new RegExp(String.raw`onProgress\??\.?\(\s*[^,()]*,${STRING}`, 'g')],
  [
    'core progress callback',
    new RegExp(String.raw`\bprogress\(\s*(?:undefined|null|[\d.]+)\s*,${STRING}`, 'g'),
  ],
  ['parser note', new RegExp(String.raw`notes\.push\(${STRING}`, 'g')],
  ['notes list', new RegExp(String.raw`notes:\s*\[${STRING}`, 'g')],
  [
    'log line',
    new RegExp(
      String.raw`(?<!function )\b(?:logLine|progress\.logWith|progress\.fail|progress\.line)\((?:[^,()]*,)?${STRING}`,
      'g',
    ),
  ],
  ['KB job error', new RegExp(String.raw`new KbJobError\(${STRING}`, 'g')],
];

/** The literal text of the string starting at `start` (a quote), with its `${…}` parts left out. */
function literalText(source: string, start: number): string {
  const quote = source[start];
  let text = '';
  for (let i = start + 1; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      text += source[i + 1] ?? '';
      i++;
    } else if (c === quote) {
      return text;
    } else if (quote === '`' && c === '$' && source[i + 1] === '{') {
      let depth = 0;
      for (i += 1; i < source.length; i++) {
        if (source[i] === '{') depth++;
        else if (source[i] === '}' && --depth === 0) break;
      }
    } else {
      text += c;
    }
  }
  return text;
}

/** Log calls whose message is written out in words (a `${…}`-only template is fine). */
function literalLogCalls(source: string): string[] {
  return LOG_CALLS.flatMap(([what, pattern]) =>
    [...source.matchAll(pattern)]
      .map((m) => literalText(source, (m.index ?? 0) + m[0].length))
      .filter((text) => /[A-Za-z]{2}/.test(text))
      .map((text) => `${what}: ${text}`),
  );
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.includes('test-')
      ? [full]
      : [];
  });
}

describe('progress-log lines come from the shared catalogue', () => {
  it('finds a literal message in each kind of call it checks', () => {
    const probe = [
      "await progress.report(0.1, 'Start to parse.');",
      'await progress.report(\n  null,\n  `Generate ${n} chunks`,\n);',
      "await opts.onProgress?.(0.2, 'DOCX structure read.');",
      'progress(undefined, `Cluster one layer: ${a} -> ${b}`);',
      'notes.push(`${n} tables found.`);',
      "notes: ['The .xls file is a text export.'],",
      'const log = progress.logWith(...lines, `Task done (${s}s)`);',
      "progress_msg: logLine(task, 'Reused previous task chunks.'),",
      "throw new KbJobError('The knowledge base no longer exists.');",
    ].join('\n');
    expect(literalLogCalls(probe)).toHaveLength(9);
    const fine = [
      "await progress.report(0.1, progressMessage('startParse'));",
      'await progress.report(0.85 + (0.1 * done) / drafts.length);',
      "notes.push(progressMessage('pdfTablesOne', { count: 1 }));",
      'await progress.fail(` ${failureMessage(handler, err)}`);',
      "this.fail('a sector chain is broken or loops');",
      "export function logLine(task: Pick<TaskTable, 'from_page' | 'to_page'>, msg: string): string {",
    ].join('\n');
    expect(literalLogCalls(fine)).toEqual([]);
  });

  it('the server writes no literal progress-log message', () => {
    const found: string[] = [];
    for (const area of AREAS) {
      for (const file of sources(path.join(serverSrc, area))) {
        const rel = path.relative(root, file);
        for (const hit of literalLogCalls(fs.readFileSync(file, 'utf8'))) found.push(`${rel}: ${hit}`);
      }
    }
    expect(found).toEqual([]);
  });
});
