/** Iteration (§3.6, §6.5): resolves the list; its IterationItem runs the body once per element. */
import { pyTypeName } from '../util/pyjson.js';
import type { ComponentImpl } from './types.js';

export const iteration: ComponentImpl = {
  async invoke(ctx) {
    const ref = String(ctx.params.items_ref ?? '');
    const items = await ctx.resolve(ref);
    ctx.setInputs({ items_ref: items });
    if (!Array.isArray(items))
      throw new Error(`${ref} must be an array, but its type is ${pyTypeName(items)}`);
    const s = ctx.container(ctx.id);
    s.items = items;
    s.counter = 0;
    s.calls = 0;
    s.done = false;
    // Outputs are lists built round by round; with no element they stay null.
    for (const name of Object.keys((ctx.params.outputs as object) ?? {})) delete ctx.outputsOf(ctx.id)![name];
  },
};
