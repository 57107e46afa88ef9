/**
 * Categorize (§6.3): asks the model which category the query belongs to and routes to that
 * category's `to`. The winner is the name occurring most often in the answer (case-insensitive; a
 * tie goes to the first listed; no occurrence → the last category).
 */
import { callModel, generationOptions, getModel } from '../model/call.js';
import type { ChatRequest } from '../ports.js';
import { valueToText } from '../variables/render.js';
import type { ComponentContext, ComponentImpl } from './types.js';

interface Category {
  description: string;
  examples: string[];
  to: string[];
}

async function systemPrompt(ctx: ComponentContext, cats: [string, Category][]): Promise<string> {
  const lines = [
    'You are an intent classifier. Classify the user request into exactly one of the categories below.',
    '',
    '# Categories',
    ...cats.map(([name]) => `- ${name}`),
    '',
  ];
  for (const [name, c] of cats) {
    if (c.description) lines.push(`## ${name}`, await ctx.render(c.description), '');
  }
  const examples = cats.flatMap(([name, c]) =>
    c.examples.filter((e) => e.trim()).map((e) => `USER: "${e.replace(/\n/g, ' ')}" → ${name}`),
  );
  if (examples.length) lines.push('# Examples', ...examples, '');
  lines.push('Reply with the category name only, nothing else.');
  return lines.join('\n');
}

/** Count case-insensitive occurrences of each name; most wins, ties to the first, none → last. */
export function pickCategory(answer: string, names: string[]): string {
  const text = answer.toLowerCase();
  let best = -1;
  let bestCount = 0;
  names.forEach((n, i) => {
    const needle = n.toLowerCase();
    if (!needle) return;
    let count = 0;
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) count++;
    if (count > bestCount) {
      best = i;
      bestCount = count;
    }
  });
  return names[best >= 0 ? best : names.length - 1];
}

export const categorize: ComponentImpl = {
  async invoke(ctx) {
    const p = ctx.params as {
      llm_id: string;
      query: string;
      message_history_window_size: number;
      category_description: Record<string, Category>;
    };
    const cats = Object.entries(p.category_description);
    if (!cats.length) throw new Error('[Categorize] Category examples must not be empty');
    const query = await valueToText(
      p.query.includes('{') ? await ctx.render(p.query) : await ctx.resolve(p.query || 'sys.query'),
    );
    ctx.setInputs({ [p.query]: query });
    const window = Math.max(1, p.message_history_window_size);
    const turns = [...ctx.history(), { role: 'user' as const, content: query }].slice(-2 * window);
    turns[turns.length - 1] = { role: 'user', content: query };
    const user = turns.map((t) => `${t.role.toUpperCase()}: "${t.content}"`).join(' | ');
    const model = await getModel(ctx, p.llm_id, false);
    const request: ChatRequest = {
      messages: [
        { role: 'system', content: await systemPrompt(ctx, cats) },
        { role: 'user', content: user },
      ],
      options: generationOptions(ctx.params),
    };
    const answer = await callModel(ctx, model, request);
    const name = pickCategory(
      answer.text,
      cats.map(([n]) => n),
    );
    ctx.setOutput('category_name', name);
    ctx.setOutput('_next', p.category_description[name].to);
  },
};
