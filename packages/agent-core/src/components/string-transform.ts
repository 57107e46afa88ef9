/**
 * StringTransform (§6.11). split: cut the resolved `split_ref` at every delimiter (empty pieces
 * kept). merge: render `script` — lists joined with the first delimiter, Jinja2 when it has markers.
 */
import { isTextStream } from '../runtime/text-stream.js';
import { renderWithJinja } from './message.js';
import { recordRefInputs } from './record-inputs.js';
import type { ComponentImpl } from './types.js';

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export const stringTransform: ComponentImpl = {
  async invoke(ctx) {
    const p = ctx.params as { method: string; split_ref: string; script: string; delimiters: string[] };
    const delimiters = p.delimiters.length ? p.delimiters : [','];
    if (p.method === 'split') {
      let v = p.split_ref ? await ctx.resolve(p.split_ref) : '';
      if (isTextStream(v)) v = await v.text();
      if (v === null || v === undefined) v = '';
      if (typeof v !== 'string')
        throw new Error(`The input of split must be a string, got ${Array.isArray(v) ? 'a list' : typeof v}`);
      ctx.setInputs({ [p.split_ref]: v });
      const pattern = new RegExp(delimiters.filter(Boolean).map(escape).join('|') || ',');
      ctx.setOutput('result', v.split(pattern));
      return;
    }
    await recordRefInputs(ctx, [p.script]);
    ctx.setOutput('result', await renderWithJinja(ctx, p.script, delimiters[0]));
  },
};
