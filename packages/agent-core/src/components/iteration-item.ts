/**
 * IterationItem (§3.6): on every call after the first it collects the body's values into the
 * Iteration's output lists, then hands out the next element (`item`, `index`) or says the
 * iteration is done.
 */
import { isPlainObject } from '../util/pyjson.js';
import { isTextStream } from '../runtime/text-stream.js';
import type { ComponentImpl } from './types.js';

export const iterationItem: ComponentImpl = {
  async invoke(ctx) {
    const parentId = ctx.parentId;
    if (!parentId) throw new Error('IterationItem is not inside an Iteration');
    const s = ctx.container(parentId);
    if (s.calls > 0) await collect(ctx, parentId);
    s.calls += 1;
    if (s.counter >= s.items.length) {
      s.done = true;
      return;
    }
    ctx.setOutput('item', s.items[s.counter]);
    ctx.setOutput('index', s.counter);
    s.counter += 1;
  },
};

async function collect(ctx: Parameters<ComponentImpl['invoke']>[0], parentId: string) {
  const children = new Set(ctx.childIds(parentId));
  const decl = ctx.paramsOf(parentId)?.outputs;
  const outputs = ctx.outputsOf(parentId)!;
  if (!isPlainObject(decl)) return;
  for (const [name, d] of Object.entries(decl)) {
    const ref = isPlainObject(d) && typeof d.ref === 'string' ? d.ref : '';
    if (!ref || !children.has(ref.split('@')[0])) continue;
    let v = await ctx.resolve(ref);
    if (isTextStream(v)) v = await v.text();
    if (!Array.isArray(outputs[name])) outputs[name] = [];
    (outputs[name] as unknown[]).push(v);
  }
}
