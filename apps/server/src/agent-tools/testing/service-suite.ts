/**
 * The four cases every service tool is tested on against its stand-in (issue 15): a result, an empty
 * result, an auth error and a time-out — plus an empty request that sends nothing. Each tool's test
 * file gives the stand-in's answers (in the service's real response shape) and what it expects.
 */
import type { ToolComponent } from '@lectern/agent-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin, type StandinContext } from '../../../test/standins/common.js';
import type { ToolDeps } from '../context.js';
import { runTool, testDeps, type ToolRun } from './invoke.js';

export type StandinMode = 'result' | 'empty' | 'auth';

export interface ServiceSuite {
  title: string;
  make(deps: ToolDeps): ToolComponent;
  /** the base-URL overrides pointing the tool at the stand-in */
  env(origin: string): Record<string, string>;
  /** answers one request in the service's shape for the current mode; false = not this route */
  answer(c: StandinContext, mode: StandinMode): boolean | Promise<boolean>;
  params?: Record<string, unknown>;
  args: Record<string, unknown>;
  /** the main argument's name (set to "" for the empty-request case) */
  primary?: string;
  result(run: ToolRun, standin: Standin): void;
  empty(run: ToolRun): void;
  /** "<Tool> error: " prefix */
  label: string;
  auth: RegExp;
}

export function serviceToolSuite(o: ServiceSuite): void {
  describe(o.title, () => {
    let standin: Standin;
    let mode: StandinMode = 'result';
    beforeAll(async () => {
      standin = await startStandin([(c) => o.answer(c, mode)]);
    });
    afterAll(() => standin.close());
    const run = (extra: Record<string, unknown> = {}) =>
      runTool(o.make(testDeps(o.env(standin.origin), { timeoutMs: 300 })), {
        params: { ...o.params },
        args: { ...o.args, ...extra },
      });

    it('turns the answer into the outputs', async () => {
      mode = 'result';
      const r = await run();
      expect(r.error).toBeUndefined();
      o.result(r, standin);
    });

    it('gives empty outputs for an empty answer', async () => {
      mode = 'empty';
      const r = await run();
      expect(r.error).toBeUndefined();
      o.empty(r);
    });

    it('reports an auth error', async () => {
      mode = 'auth';
      const r = await run();
      expect(r.error?.startsWith(`${o.label} error: `), r.error).toBe(true);
      expect(r.error).toMatch(o.auth);
    });

    it('ends a call that gets no answer at its time limit', async () => {
      mode = 'result';
      standin.fail('hang');
      const started = Date.now();
      const r = await run();
      expect(r.error).toMatch(
        new RegExp(`^${o.label} error: no answer from 127\\.0\\.0\\.1:\\d+ within 0\\.3 s$`),
      );
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('sends nothing for an empty request', async () => {
      const before = standin.requests.length;
      const r = await run({ [o.primary ?? 'query']: '' });
      expect(r.error).toBeUndefined();
      expect(r.result).toBe('');
      expect(standin.requests.length).toBe(before);
    });
  });
}
