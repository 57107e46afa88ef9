/**
 * A tool component (Invoke, ExeSQL, Email, search tools… — issue 15) on the canvas: the host's
 * ToolComponent does the work. Its call arguments are the meta parameter keys valued from the node's
 * params, a whole-string reference (`{sys.query}`, `Cpn:Id@output`) resolved; inline references are
 * left for the tool to render (§10.1 "On the canvas").
 */
import type { ToolComponent } from '../ports.js';
import { isTextStream } from '../runtime/text-stream.js';
import type { ComponentImpl } from './types.js';

export function hostTool(tool: ToolComponent): ComponentImpl {
  return {
    async invoke(ctx) {
      const reasons = tool.check?.(ctx.params) ?? [];
      if (reasons.length) throw new Error(reasons.join('; '));
      const meta = tool.meta(ctx.params);
      const args: Record<string, unknown> = {};
      for (const [key, m] of Object.entries(meta.parameters)) {
        let v = ctx.params[key] ?? m.default;
        if (typeof v === 'string') {
          const whole = /^\s*\{[^{}]+\}\s*$/.test(v) || (!v.includes('{') && v.includes('@'));
          if (whole && ctx.isReference(v)) {
            v = await ctx.resolve(v);
            if (isTextStream(v)) v = await v.text();
          }
        }
        args[key] = v;
      }
      ctx.setInputs(args);
      await tool.invoke({
        params: ctx.params,
        args,
        signal: ctx.signal,
        render: (text) => ctx.render(text),
        resolve: (ref) => ctx.resolve(ref),
        setOutput: (k, v) => ctx.setOutput(k, v),
        addReferences: (c, d) => ctx.addReferences(c, d),
        sleep: (ms) => ctx.sleep(ms),
        logger: ctx.ports.logger,
      });
    },
  };
}
