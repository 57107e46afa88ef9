/**
 * Structured output (§6.1): when `outputs.structured` is a JSON schema with properties, the model is
 * told to answer with JSON matching it, the answer is parsed leniently, and a failed parse is retried
 * `max_retries + 1` times with a note before the component errors.
 */
import type { ComponentContext } from '../components/types.js';
import type { AgentChatModel, ChatMessage, ChatRequest } from '../ports.js';
import { parseModelJson } from '../util/literal.js';
import { isPlainObject } from '../util/pyjson.js';
import { callModel } from './call.js';

export function structuredSchema(params: Record<string, unknown>): Record<string, unknown> | null {
  const outputs = params.outputs;
  if (!isPlainObject(outputs)) return null;
  const s = outputs.structured;
  if (!isPlainObject(s)) return null;
  // The editor stores `{type, value?, ...schema}` or the schema itself.
  const schema =
    isPlainObject(s.value) && isPlainObject((s.value as Record<string, unknown>).properties)
      ? (s.value as Record<string, unknown>)
      : s;
  return isPlainObject(schema.properties) && Object.keys(schema.properties).length ? schema : null;
}

export function structuredInstructions(schema: Record<string, unknown>): string {
  return `# Output format
Answer with one JSON object that follows this JSON schema, and nothing else (no prose, no code fences):
${JSON.stringify({ type: 'object', properties: schema.properties, required: schema.required ?? [] }, null, 2)}`;
}

export async function callStructured(
  ctx: ComponentContext,
  model: AgentChatModel,
  request: ChatRequest,
): Promise<unknown> {
  const attempts = (Number(ctx.params.max_retries) || 0) + 1;
  const messages: ChatMessage[] = [...request.messages];
  let last = '';
  for (let i = 0; i < attempts; i++) {
    const answer = await callModel(ctx, model, { ...request, messages, json: true });
    last = answer.text;
    const parsed = parseModelJson(answer.text);
    if (parsed.ok && isPlainObject(parsed.value)) return parsed.value;
    messages.push({ role: 'assistant', content: answer.text });
    messages.push({
      role: 'user',
      content:
        'Your previous answer could not be parsed as a JSON object. Reply again with only the JSON object.',
    });
  }
  throw new Error(`The answer could not be parsed as JSON: ${last.slice(0, 200)}`);
}
