/**
 * Message (§6.8): the only component that sends text to the user. One `content` alternative is picked
 * at random. Streaming path (default, no Jinja2 markers): literal runs, resolved references and the
 * deltas of a streamed LLM/Agent answer (think markers included) go out as `message` events, the
 * spaces around references kept. Otherwise the text is rendered as Jinja2 with each reference bound
 * to a placeholder name and sent as one `message`. `message_end` carries the reference when the text
 * cites chunks, the attachment when `output_format` is set, and `status`.
 */
import type { MessageData, MessageEndData } from '../runtime/events.js';
import { citesChunks } from '../runtime/references.js';
import { isTextStream } from '../runtime/text-stream.js';
import { hasJinjaMarkers, placeholderName, renderJinja } from '../util/jinja.js';
import { REPLACE_PATTERN, findRefs, splitRefs } from '../variables/refs.js';
import { valueToText } from '../variables/render.js';
import { recordRefInputs } from './record-inputs.js';
import type { ComponentContext, ComponentImpl, MessagePlan } from './types.js';

const FORMATS = ['markdown', 'html', 'pdf', 'docx', 'xlsx'];

/**
 * Render text the non-streaming way (also StringTransform merge and Template). Inside Jinja2
 * expressions a reference is bound to its value itself (so `{% for x in {Cpn@list} %}` iterates a
 * list; RAGFlow binds the text form only); in plain text it is replaced by its text form.
 */
export async function renderWithJinja(
  ctx: ComponentContext,
  text: string,
  listJoin?: string,
): Promise<string> {
  const texts = new Map<string, string>();
  const raw = new Map<string, unknown>();
  for (const ref of findRefs(text)) {
    let v = await ctx.resolve(ref);
    if (isTextStream(v)) v = await v.text();
    raw.set(ref, v ?? '');
    texts.set(ref, await valueToText(v, listJoin));
  }
  if (!hasJinjaMarkers(text)) return text.replace(REPLACE_PATTERN, (_m, ref: string) => texts.get(ref) ?? '');
  const vars: Record<string, unknown> = {};
  for (const [ref, v] of raw) vars[placeholderName(ref)] = v;
  const withNames = text.replace(REPLACE_PATTERN, (_m, ref: string) => placeholderName(ref));
  let out = renderJinja(withNames, vars);
  for (const [ref, v] of texts) out = out.split(placeholderName(ref)).join(v);
  return out;
}

function streamingPlan(
  ctx: ComponentContext,
  text: string,
  resolved: Map<string, unknown>,
  finish: (content: string) => Promise<MessageEndData>,
): MessagePlan {
  let content = '';
  return {
    async *pieces(): AsyncIterable<MessageData> {
      const rendered = new Map<string, string>();
      for (const piece of splitRefs(text)) {
        if (piece.kind === 'text') {
          content += piece.value;
          yield { content: piece.value };
          continue;
        }
        const cached = rendered.get(piece.value);
        if (cached !== undefined) {
          content += cached;
          if (cached) yield { content: cached };
          continue;
        }
        const value = resolved.get(piece.value);
        if (!isTextStream(value)) {
          const s = await valueToText(value);
          rendered.set(piece.value, s);
          content += s;
          if (s) yield { content: s };
          continue;
        }
        let answer = '';
        try {
          for await (const item of value) {
            if (item.kind === 'text') {
              answer += item.text;
              content += item.text;
              yield { content: item.text };
            } else if (item.kind === 'think') yield { content: item.text };
            else if (item.kind === 'think_start') yield { content: '', start_to_think: true };
            else yield { content: '', end_to_think: true };
          }
        } catch {
          // The producer failed; it carries the error. The message ends with what arrived.
          ctx.setOutput('content', content);
          return;
        }
        rendered.set(piece.value, answer);
      }
      ctx.setOutput('content', content);
    },
    finish: () => finish(content),
  };
}

export const message: ComponentImpl = {
  async invoke(ctx) {
    const p = ctx.params as {
      content: string[];
      stream: boolean;
      output_format?: string | null;
      status?: unknown;
    };
    const alternatives = p.content.length ? p.content : [''];
    const text =
      alternatives[
        Math.min(alternatives.length - 1, Math.floor(ctx.ports.ids.random() * alternatives.length))
      ];
    await recordRefInputs(ctx, [text]);

    const finish = async (content: string): Promise<MessageEndData> => {
      const end: MessageEndData = {};
      if (p.status !== undefined && p.status !== null && p.status !== '') end.status = p.status;
      if (p.output_format) {
        const format =
          p.output_format === 'md'
            ? 'markdown'
            : FORMATS.includes(p.output_format)
              ? p.output_format
              : 'markdown';
        if (!ctx.ports.storage) throw new Error('Attachments need a storage port');
        const attachment = await ctx.ports.storage.saveAttachment(
          { content, format },
          { signal: ctx.signal },
        );
        ctx.setOutput('attachment', attachment);
        end.attachment = attachment;
      }
      if (citesChunks(content)) end.reference = structuredClone(ctx.currentReference());
      return end;
    };

    if (p.stream && !hasJinjaMarkers(text)) {
      const resolved = new Map<string, unknown>();
      for (const ref of findRefs(text)) resolved.set(ref, await ctx.resolve(ref));
      ctx.setMessagePlan(streamingPlan(ctx, text, resolved, finish));
      return;
    }
    const content = await renderWithJinja(ctx, text);
    ctx.setMessagePlan({
      async *pieces() {
        ctx.setOutput('content', content);
        if (content) yield { content };
      },
      finish: () => finish(content),
    });
  },
};
