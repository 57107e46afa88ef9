/**
 * Template (pre-0.20, §8): Jinja2 text whose named `parameters` ({key, component_id}) are bound to
 * component outputs; `{cpn@var}` references work as everywhere. Output `content`.
 */
import { isTextStream } from '../runtime/text-stream.js';
import { hasJinjaMarkers, placeholderName, renderJinja } from '../util/jinja.js';
import { REPLACE_PATTERN, findRefs } from '../variables/refs.js';
import { valueToText } from '../variables/render.js';
import type { ComponentContext, ComponentImpl } from './types.js';

async function parameterValue(ctx: ComponentContext, componentId: string): Promise<unknown> {
  let ref = componentId;
  // A bare component id meant that component's main output before the redesign.
  if (!ref.includes('@') && !ctx.isReference(ref)) {
    const type = ctx.typeOf(ref);
    if (!type) throw new Error(`Can't find variable: '${ref}'`);
    ref = `${ref}@${type === 'Retrieval' ? 'formalized_content' : type === 'Begin' ? 'sys.query' : 'content'}`;
    if (type === 'Begin') ref = 'sys.query';
  }
  const v = await ctx.resolve(ref);
  return isTextStream(v) ? v.text() : v;
}

export const template: ComponentImpl = {
  async invoke(ctx) {
    const p = ctx.params as { content: string; parameters: { key: string; component_id: string }[] };
    const vars: Record<string, unknown> = {};
    const inputs: Record<string, unknown> = {};
    for (const { key, component_id } of p.parameters) {
      if (!key || !component_id) continue;
      vars[key] = await parameterValue(ctx, component_id);
      inputs[key] = vars[key];
    }
    ctx.setInputs(inputs);
    // One Jinja2 pass sees both the named parameters and the {refs} (bound to placeholder names).
    const refValues = new Map<string, string>();
    for (const ref of findRefs(p.content)) {
      let v = await ctx.resolve(ref);
      if (isTextStream(v)) v = await v.text();
      vars[placeholderName(ref)] = v ?? '';
      refValues.set(ref, await valueToText(v));
    }
    let text = p.content.replace(REPLACE_PATTERN, (_m, ref: string) => placeholderName(ref));
    if (hasJinjaMarkers(text)) text = renderJinja(text, vars);
    for (const [ref, v] of refValues) text = text.split(placeholderName(ref)).join(v);
    for (const { key } of p.parameters)
      if (key) text = text.split(`{${key}}`).join(await valueToText(vars[key]));
    ctx.setOutput('content', text);
  },
};
