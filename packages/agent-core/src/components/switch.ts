/** Switch (§6.4): the first condition that holds routes to its `to`; none → `end_cpn_ids`. */
import { switchOperator } from './conditions.js';
import type { ComponentImpl } from './types.js';

interface Condition {
  logical_operator: string;
  items: { cpn_id: string; operator: string; value?: unknown }[];
  to: string[];
}

export const switchComponent: ComponentImpl = {
  async invoke(ctx) {
    const conditions = ctx.params.conditions as Condition[];
    const inputs: Record<string, unknown> = {};
    let chosen = ctx.params.end_cpn_ids as string[];
    for (const cond of conditions) {
      const results: boolean[] = [];
      for (const item of cond.items) {
        if (!item.cpn_id) continue;
        const input = await ctx.resolve(item.cpn_id);
        inputs[item.cpn_id] = input;
        const r = switchOperator(input, item.operator, item.value ?? '');
        results.push(r);
        if (cond.logical_operator === 'or' && r) break;
      }
      const holds = cond.logical_operator === 'or' ? results.some(Boolean) : results.every(Boolean);
      if (holds) {
        chosen = cond.to;
        break;
      }
    }
    ctx.setInputs(inputs);
    ctx.setOutput(
      'next',
      chosen.map((id) => ctx.displayNameOf(id)),
    );
    ctx.setOutput('_next', chosen);
  },
};
