/**
 * KeywordExtract (pre-0.20, §8): the model picks the `top_n` most important keywords of the query
 * (output `content`, comma-separated), e.g. to feed a search.
 */
import { callModel, generationOptions, getModel } from '../model/call.js';
import { valueToText } from '../variables/render.js';
import type { ComponentImpl } from './types.js';

export const keywordExtract: ComponentImpl = {
  async invoke(ctx) {
    const p = ctx.params as { llm_id: string; top_n: number; query: string };
    const query = await valueToText(
      p.query.includes('{') ? await ctx.render(p.query) : await ctx.resolve(p.query || 'sys.query'),
    );
    ctx.setInputs({ [p.query]: query });
    const model = await getModel(ctx, p.llm_id, false);
    const answer = await callModel(ctx, model, {
      messages: [
        {
          role: 'system',
          content: `Extract the ${p.top_n} most important keywords or key phrases of the text, most important first, in the language of the text. Reply with the keywords separated by commas and nothing else.`,
        },
        { role: 'user', content: query },
      ],
      options: generationOptions(ctx.params),
    });
    const keywords = answer.text
      .split(/[,，、\n]/)
      .map((k) => k.trim().replace(/^["'\-*\d.\s]+|["']$/g, ''))
      .filter(Boolean)
      .slice(0, Math.max(1, p.top_n));
    ctx.setOutput('content', keywords.join(', '));
  },
};
