/** A DSL written before RAGFlow's agent redesign (SPEC §3 names) loads as current components and runs. */
import { describe, expect, it } from 'vitest';
import { canonicalName, loadDslReport, runCanvas, validateDsl } from '../index.js';
import legacy from '../../test/fixtures/legacy-v019.json' with { type: 'json' };
import { answerText, collect, trail } from '../../test/helpers.js';
import { fakePorts } from '../../test/fakes.js';

describe('older component names', () => {
  it('recognises the SPEC §3 names in any spelling', () => {
    expect(
      [
        'interact',
        'Answer',
        'generate',
        'relevant',
        'rewrite question',
        'keyword_extract',
        'concentrator',
        'note',
        'template',
        'begin',
        'message',
      ].map(canonicalName),
    ).toEqual([
      'Answer',
      'Answer',
      'Generate',
      'Relevant',
      'RewriteQuestion',
      'KeywordExtract',
      'Concentrator',
      'Note',
      'Template',
      'Begin',
      'Message',
    ]);
  });

  it('maps Answer, Generate, Relevant and Note, and converts old param shapes', () => {
    const { dsl, legacyMapped } = loadDslReport(legacy);
    expect(legacyMapped).toEqual([
      'relevant:0: Relevant → Categorize',
      'generate:0: Generate → LLM',
      'answer:0: Answer → turn boundary',
      'note:0: Note → editor only',
    ]);
    const c = dsl.components;
    expect(Object.keys(c).sort()).toEqual(
      [
        'Message:answer0generate0',
        'begin',
        'categorize:0',
        'generate:0',
        'keyword:0',
        'message:0',
        'message:1',
        'relevant:0',
        'retrieval:0',
      ].sort(),
    );
    expect(c.begin.downstream).toEqual(['categorize:0']);
    expect(c['categorize:0'].obj.params).toMatchObject({
      query: 'sys.query',
      category_description: {
        product: { examples: ['How do I install it?', 'What does it cost?'], to: ['keyword:0'] },
        other: { examples: ['Hello'], to: ['message:0'] },
      },
    });
    expect(c['message:0'].obj.params).toEqual({ content: ['I can only help with the product.'] });
    expect(c['message:0'].downstream).toEqual([]);
    expect(c['keyword:0'].obj.params.query).toBe('sys.query');
    expect(c['retrieval:0'].obj.params.query).toBe('{keyword:0@content}');
    expect(c['relevant:0'].obj).toMatchObject({
      component_name: 'Categorize',
      params: { query: 'retrieval:0@formalized_content' },
    });
    expect(c['generate:0'].obj).toMatchObject({
      component_name: 'LLM',
      params: {
        sys_prompt: 'Answer from this knowledge only:\n{retrieval:0@formalized_content}',
        prompts: [{ role: 'user', content: '{sys.query}' }],
      },
    });
    expect(c['generate:0'].downstream).toEqual(['Message:answer0generate0']);
    expect(c['Message:answer0generate0'].obj.params).toEqual({ content: ['{generate:0@content}'] });
    expect(dsl.path).toEqual([]);
    expect(validateDsl(dsl)).toEqual([]);
  });

  it('runs a turn end to end: categorize → keywords → retrieval → relevance → answer', async () => {
    const ports = fakePorts((req) => {
      const sys = req.messages[0].content;
      if (sys.includes('intent classifier') && sys.includes('- product')) return { text: 'product' };
      if (sys.includes('intent classifier')) return { text: 'relevant' };
      if (sys.startsWith('Extract the 2')) return { text: 'install, windows' };
      return { text: ['Run the installer [ID:', '0]', '.'] };
    });
    const run = runCanvas({ dsl: legacy, query: 'How do I install on Windows?', taskId: 't', ports });
    const events = await collect(run);
    expect(
      trail(events)
        .filter((t) => t.startsWith('node_started'))
        .map((t) => t.slice(13)),
    ).toEqual([
      'begin',
      'categorize:0',
      'keyword:0',
      'retrieval:0',
      'relevant:0',
      'generate:0',
      'Message:answer0generate0',
    ]);
    expect(answerText(events)).toBe('Run the installer [ID:0].');
    expect((await run.outcome).status).toBe('finished');
    const retrieval = ports.retrieval as unknown as { requests: { query: string }[] };
    expect(retrieval.requests[0].query).toBe('install, windows');
  });
});
