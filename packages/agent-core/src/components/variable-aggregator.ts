/** VariableAggregator (§6.10): per group, the first variable with a truthy value; the join after alternative branches. */
import { isTextStream } from '../runtime/text-stream.js';
import { pyTruthy } from '../util/pyjson.js';
import type { ComponentImpl } from './types.js';

export const variableAggregator: ComponentImpl = {
  async invoke(ctx) {
    const groups = ctx.params.groups as { group_name: string; variables: { value: string }[] }[];
    const inputs: Record<string, unknown> = {};
    for (const g of groups) {
      for (const v of g.variables) {
        if (!v.value) continue;
        let value: unknown;
        try {
          value = await ctx.resolve(v.value);
        } catch {
          continue;
        }
        if (isTextStream(value)) value = await value.text();
        inputs[v.value] = value;
        if (pyTruthy(value)) {
          ctx.setOutput(g.group_name, value);
          break;
        }
      }
    }
    ctx.setInputs(inputs);
  },
};
