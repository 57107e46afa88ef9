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
