/**
 * PDF parsing throughput: generates a 500-page text PDF (two columns, headings, ruled and unruled
 * tables, running heads) and parses it with parsePdf (DeepDOC layout analysis), reporting pages/s and
 * peak RSS. Targets: ≥ 50 pages/s, peak RSS < 1 GB.
 *
 *   npx tsx bench/pdf-parse.ts [pages=500] [--tasks=12]
 *
 * With --tasks=N the document is also parsed the way the task queue does it: N-page ranges in sequence.
 */
import os from 'node:os';
import { parsePdf } from '../apps/server/src/ingest/parsers/pdf/index.js';
import { makePdf } from '../apps/server/test/fixtures/pdf/make-pdf.js';
import { benchPage } from '../apps/server/test/fixtures/pdf/sample-docs.js';

const pages = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 500);
const taskArg = process.argv.find((a) => a.startsWith('--tasks='));
const taskSize = taskArg ? Number(taskArg.split('=')[1]) : 0;

let peak = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);

const t0 = performance.now();
const pdf = makePdf(
  Array.from({ length: pages }, (_, i) => benchPage(i + 1)),
  { compress: true },
);
const genMs = performance.now() - t0;
console.log(
  `generated ${pages} pages, ${(pdf.length / 1024 / 1024).toFixed(1)} MB in ${genMs.toFixed(0)} ms`,
);

// Warm-up on a small slice (module loading, JIT) so the figure measures steady-state parsing.
await parsePdf(pdf, { ext: 'pdf', fileName: 'bench.pdf', fromPage: 0, toPage: 3 });

const t1 = performance.now();
const c1 = process.cpuUsage();
const doc = await parsePdf(pdf, { ext: 'pdf', fileName: 'bench.pdf' });
const ms = performance.now() - t1;
const cpu = process.cpuUsage(c1);
const cpuMs = (cpu.user + cpu.system) / 1000;
peak = Math.max(peak, process.memoryUsage().rss);
const tables = doc.sections.filter((s) => s.kind === 'table').length;
const titles = doc.sections.filter((s) => s.kind === 'title').length;
console.log(
  `whole document: ${pages} pages in ${(ms / 1000).toFixed(2)} s = ${((pages * 1000) / ms).toFixed(1)} pages/s; ` +
    `${doc.sections.length} sections (${titles} titles, ${tables} tables)`,
);
// Wall time depends on what else the machine runs; CPU time per page does not.
console.log(
  `CPU time ${(cpuMs / 1000).toFixed(2)} s = ${((pages * 1000) / cpuMs).toFixed(1)} pages per CPU-second; load average ${os.loadavg()[0].toFixed(1)}`,
);

if (taskSize > 0) {
  const t2 = performance.now();
  for (let from = 0; from < pages; from += taskSize) {
    await parsePdf(pdf, {
      ext: 'pdf',
      fileName: 'bench.pdf',
      fromPage: from,
      toPage: Math.min(pages, from + taskSize),
    });
  }
  const ms2 = performance.now() - t2;
  console.log(`as ${taskSize}-page tasks: ${((pages * 1000) / ms2).toFixed(1)} pages/s`);
}

clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
console.log(`peak RSS ${(peak / 1024 / 1024).toFixed(0)} MB`);
