/** Loop (§3.7, §6.6): sets its loop variables; its LoopItem runs the body round by round. */
import { defaultOfType } from '../dsl/load.js';
import type { ComponentImpl } from './types.js';

interface LoopVariable {
  variable: string;
  type: string;
  input_mode: string;
  value?: unknown;
}

export const loop: ComponentImpl = {
  async invoke(ctx) {
    const recorded: Record<string, unknown> = {};
    for (const v of ctx.params.loop_variables as LoopVariable[]) {
      if (!v.variable) continue;
      let value: unknown;
      if (v.input_mode === 'constant') value = v.value;
      else if (v.input_mode === 'variable') value = await ctx.resolve(String(v.value ?? ''));
      else value = defaultOfType(v.type);
      ctx.setOutput(v.variable, value);
      recorded[v.variable] = value;
    }
    ctx.setInputs(recorded);
    const s = ctx.container(ctx.id);
    s.counter = 0;
    s.calls = 0;
    s.done = false;
  },
};
