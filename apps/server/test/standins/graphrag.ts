/**
 * A deterministic chat model for the knowledge jobs, to plug into `startOpenAIStandin({ reply })`. It
 * recognizes the job prompts and answers in their formats:
 * - graph extraction (`-Real Data-`): capitalized names in the text become entities (type PERSON, or
 *   ORGANIZATION for names ending in Inc/Corp/Labs/University), each described by its first sentence;
 *   names in one sentence are related (strength 5), in GraphRAG's record format ending with
 *   `<|COMPLETE|>`; gleaning rounds answer `<|COMPLETE|>` and the loop check `NO`;
 * - community reports: a JSON report naming the community's first entity;
 * - description summaries, RAPTOR cluster summaries: the first sentence(s) of the input, labelled;
 * - mind maps: a markdown outline of the text's first words;
 * - the `use_kg` question rewrite: `{answer_type_keywords: [], entities_from_query: [names]}`.
 * Anything else gets the stand-in's default echo.
 */
import { defaultReply, type ChatScript, type OpenAIChatBody } from './openai.js';
import { textOf } from './openai.js';

const T = '<|>';
const STOP = new Set(
  'The A An It He She They We In On At Of And But Or For With By From To This That These Those Its Their His Her When Then There Here After Before'.split(
    ' ',
  ),
);

/** Capitalized names of a sentence, in order (multi-word names kept together). */
export function namesIn(sentence: string): string[] {
  const out: string[] = [];
  for (const m of sentence.matchAll(/\b[A-Z][a-zA-Z]+(?:\s+[A-Z][a-zA-Z]+)*\b/g)) {
    const words = m[0].split(/\s+/);
    while (words.length && STOP.has(words[0])) words.shift();
    const name = words.join(' ');
    if (name && !out.includes(name.toUpperCase())) out.push(name.toUpperCase());
  }
  return out;
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const typeOf = (name: string) => (/(INC|CORP|LABS|UNIVERSITY)$/.test(name) ? 'ORGANIZATION' : 'PERSON');

/** The extraction answer for one text. */
export function extractionAnswer(text: string): string {
  const records: string[] = [];
  const described = new Set<string>();
  for (const s of sentences(text)) {
    const names = namesIn(s);
    for (const n of names) {
      if (described.has(n)) continue;
      described.add(n);
      records.push(`("entity"${T}${n}${T}${typeOf(n)}${T}${s.replace(/[()]/g, '')})`);
    }
    for (let i = 0; i + 1 < names.length; i++) {
      records.push(
        `("relationship"${T}${names[i]}${T}${names[i + 1]}${T}${s.replace(/[()]/g, '')}${T}mentioned together${T}5)`,
      );
    }
  }
  return `${records.join('##\n')}\n<|COMPLETE|>`;
}

function between(text: string, start: string, end: string): string {
  const i = text.indexOf(start);
  if (i < 0) return '';
  const j = text.indexOf(end, i + start.length);
  return text.slice(i + start.length, j < 0 ? undefined : j);
}

export function graphRagReply(body: OpenAIChatBody): string | ChatScript {
  const last = textOf([...body.messages].reverse().find((m) => m.role === 'user')?.content);
  if (last.startsWith('-Real Data-')) return extractionAnswer(between(last, 'Text:\n', '\nOutput:'));
  if (last.startsWith('MANY entities and relationships were missed')) return '<|COMPLETE|>';
  if (last.startsWith('It appears some entities or relationships may still have been missed')) return 'NO';
  if (last.startsWith('You are an analyst writing a report')) {
    const first = /\n\s*\d*,?\s*"?([A-Z][A-Z ]+)"?,/.exec(between(last, 'Entities', 'Relationships'))?.[1];
    const name = (first ?? 'the community').trim();
    return JSON.stringify({
      title: `Community of ${name}`,
      summary: `${name} and the entities around it.`,
      rating: 5,
      rating_explanation: 'A stand-in rating.',
      findings: [{ summary: `${name} is central`, explanation: `${name} links the other entities.` }],
    });
  }
  if (last.startsWith('You are writing the description of one item')) {
    const item = between(last, 'Item: ', '\n').trim();
    const firstDescription = between(last, 'Descriptions:\n- ', '\n').trim();
    return `${item}: ${firstDescription}`;
  }
  if (last.startsWith('You turn a text into a mind map')) {
    const text = between(last, '-TEXT-\n', '\u0000').trim();
    const heads = sentences(text).slice(0, 3);
    return [
      `# ${(namesIn(text)[0] ?? 'Overview').toLowerCase()}`,
      ...heads.map((s, i) => `## Part ${i + 1}\n- ${s.split(/\s+/).slice(0, 6).join(' ')}`),
    ].join('\n');
  }
  if (last.startsWith('Please summarize the following paragraphs')) {
    const content = between(last, 'Paragraphs as following:', 'The above is the content');
    return `Summary: ${sentences(content)
      .slice(0, 3)
      .map((s) => s.split(/\s+/).slice(0, 8).join(' '))
      .join(' / ')}`;
  }
  if (last.startsWith('Extract from the question')) {
    return JSON.stringify({
      answer_type_keywords: [],
      entities_from_query: namesIn(between(last, 'Question: ', '\u0000')),
    });
  }
  return defaultReply(body);
}
