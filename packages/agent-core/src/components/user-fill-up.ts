/**
 * UserFillUp (§6.7, §3.8). Invoked without inputs when the run pauses: only the tips are rendered
 * (lists joined by `,`). Invoked with the next call's inputs on resume: each submitted key becomes
 * an output.
 */
import { applyFormInputs } from './form-inputs.js';
import type { ComponentImpl } from './types.js';

export const userFillUp: ComponentImpl = {
  async invoke(ctx) {
    const p = ctx.params as { enable_tips: boolean; tips: string; inputs: Record<string, unknown> };
    if (ctx.requestInputs === null) {
      if (p.enable_tips) ctx.setOutput('tips', await ctx.render(p.tips, { listJoin: ',' }));
      return;
    }
    await applyFormInputs(ctx, ctx.requestInputs, Object.keys(p.inputs));
  },
};
