/**
 * RewriteQuestion (the editor's `rewriteNode`; gone from RAGFlow's backend, implemented here): turns
 * the latest question plus the recent conversation into one standalone question (output `content`).
 * With no earlier turn there is nothing to resolve and the question is returned unchanged.
 */
import { callModel, generationOptions, getModel } from '../model/call.js';
import { valueToText } from '../variables/render.js';
import type { ComponentImpl } from './types.js';

export const rewriteQuestion: ComponentImpl = {
  async invoke(ctx) {
    const p = ctx.params as { llm_id: string; message_history_window_size: number; language: string };
    const question = await valueToText(ctx.globals()['sys.query']);
    const history = ctx.history().slice(-2 * Math.max(1, p.message_history_window_size));
    ctx.setInputs({ 'sys.query': question });
    if (!history.length) {
      ctx.setOutput('content', question);
      return;
    }
    const convo = history.map((t) => `${t.role.toUpperCase()}: ${t.content}`).join('\n');
    const language = p.language
      ? `Write the question in ${p.language}.`
      : 'Keep the language of the latest question.';
    const model = await getModel(ctx, p.llm_id, false);
    const answer = await callModel(ctx, model, {
      messages: [
        {
          role: 'system',
          content: `Rewrite the user's latest question into one standalone question that can be understood without the conversation: resolve pronouns and references to earlier turns, keep every constraint, add nothing else. ${language} Reply with the question only.`,
        },
        { role: 'user', content: `Conversation:\n${convo}\n\nLatest question: ${question}` },
      ],
      options: generationOptions(ctx.params),
    });
    ctx.setOutput('content', answer.text.trim() || question);
  },
};
