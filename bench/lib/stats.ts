import fs from 'node:fs';
import os from 'node:os';

/** One line describing the machine a figure was measured on. */
export function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()}`;
}

export interface Summary {
  n: number;
  median: number;
  p95: number;
  mean: number;
  max: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function summarize(xs: number[]): Summary {
  const s = [...xs].sort((a, b) => a - b);
  return {
    n: s.length,
    median: percentile(s, 50),
    p95: percentile(s, 95),
    mean: s.reduce((a, b) => a + b, 0) / (s.length || 1),
    max: s[s.length - 1] ?? 0,
  };
}

/**
 * CPU time (ms) of this process's main thread alone — on Linux, from /proc (10 ms ticks); NaN
 * elsewhere. With the bench's client and stand-ins on worker threads, this is the server's share.
 */
export function mainThreadCpuMs(): number {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}
