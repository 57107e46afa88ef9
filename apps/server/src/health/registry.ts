/** Health probes that /v1/system/status and /healthz report; modules register their own. */
export type HealthProbe = () => Promise<Record<string, unknown> | void>;

export interface HealthResult {
  status: 'green' | 'red';
  elapsed: string;
  error?: string;
  [extra: string]: unknown;
}

export class HealthRegistry {
  private readonly probes = new Map<string, HealthProbe>();

  register(name: string, probe: HealthProbe): void {
    this.probes.set(name, probe);
  }

  async run(name: string): Promise<HealthResult> {
    const probe = this.probes.get(name);
    const started = performance.now();
    if (!probe) return { status: 'red', elapsed: '0.0', error: `no probe named ${name}` };
    try {
      const extra = (await probe()) ?? {};
      return { ...extra, status: 'green', elapsed: (performance.now() - started).toFixed(1) };
    } catch (err) {
      return {
        status: 'red',
        elapsed: (performance.now() - started).toFixed(1),
        error: err instanceof Error ? err.message : String(err),
      };
    }
  }

  names(): string[] {
    return [...this.probes.keys()];
  }
}
