/** `node_finished.inputs` for text-driven components: each reference in the given texts with its value as text. */
import { findRefs } from '../variables/refs.js';
import { valueToText } from '../variables/render.js';
import { isTextStream } from '../runtime/text-stream.js';
import type { ComponentContext } from './types.js';

export async function recordRefInputs(ctx: ComponentContext, texts: string[]) {
  const inputs: Record<string, unknown> = {};
  for (const text of texts) {
    for (const ref of findRefs(text)) {
      if (ref in inputs) continue;
      try {
        const v = await ctx.resolve(ref);
        // A live stream is read by its Message; recording it here would wait for the whole answer.
        inputs[ref] = isTextStream(v) ? v.partialText : await valueToText(v);
      } catch {
        inputs[ref] = null;
      }
    }
  }
  ctx.setInputs(inputs);
}
