/**
 * LoopItem (§3.7): counts rounds up to the Loop's `maximum_loop_count`, then checks the termination
 * conditions (combined with the Loop's `logical_operator`) before the body runs. A Loop asking for
 * more rounds than the run allows stops with an error at that limit.
 */
import { loopOperator } from './conditions.js';
import type { ComponentContext, ComponentImpl } from './types.js';

interface Condition {
  variable: string;
  operator: string;
  input_mode: string;
  value?: unknown;
}

export const loopItem: ComponentImpl = {
  async invoke(ctx) {
    const loopId = ctx.parentId;
    if (!loopId) throw new Error('LoopItem is not inside a Loop');
    const loopParams = ctx.paramsOf(loopId)!;
    const s = ctx.container(loopId);
    s.calls += 1;
    const max = Number(loopParams.maximum_loop_count) || 0;
    if (s.counter >= max) {
      s.done = true;
      return;
    }
    if (s.counter >= ctx.loopRoundCap) {
      throw new Error(
        `${ctx.displayNameOf(loopId)} reached the loop limit of ${ctx.loopRoundCap} rounds and was stopped`,
      );
    }
    s.counter += 1;
    if (await terminated(ctx, loopParams)) s.done = true;
  },
};

async function terminated(ctx: ComponentContext, loopParams: Record<string, unknown>): Promise<boolean> {
  const conditions = loopParams.loop_termination_condition as Condition[];
  const op = String(loopParams.logical_operator ?? 'and');
  if (op !== 'and' && op !== 'or') throw new Error(`Invalid logical operator: ${op}`);
  const results: boolean[] = [];
  for (const c of conditions) {
    if (!c.variable || !c.operator) throw new Error('Loop condition is incomplete.');
    let value: unknown;
    if (c.input_mode === 'constant' || !c.input_mode) value = c.value;
    else if (c.input_mode === 'variable') value = await ctx.resolve(String(c.value ?? ''));
    else throw new Error('Invalid input mode.');
    results.push(loopOperator(await ctx.resolve(c.variable), c.operator, value));
  }
  return op === 'and' ? results.every(Boolean) : results.some(Boolean);
}
