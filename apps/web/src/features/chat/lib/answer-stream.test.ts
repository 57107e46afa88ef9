import { describe, expect, it } from 'vitest';
import { applyAnswerEvent, startAnswer, toReference, toReferenceChunk } from './answer-stream';
import { splitThinking } from './thinking';

const ev = (data: Record<string, unknown>) => ({
  code: 0,
  message: '',
  data: { reference: { chunks: [] }, final: false, ...data },
});
const chunk = {
  id: 'c1',
  content: 'Paris is the capital of France.',
  document_id: 'd1',
  document_name: 'france.txt',
  dataset_id: 'k1',
  image_id: '',
  positions: [],
  url: null,
  similarity: 0.8,
  vector_similarity: 0.7,
  term_similarity: 0.9,
  doc_type: '',
};

describe('applyAnswerEvent', () => {
  it('appends only the new text of each delta and takes the reference from the final event', () => {
    let s = startAnswer();
    s = applyAnswerEvent(s, ev({ answer: 'Paris is', id: 'm1' }));
    s = applyAnswerEvent(s, ev({ answer: ' the capital' }));
    expect(s).toMatchObject({ id: 'm1', content: 'Paris is the capital', final: false, error: null });
    expect(s.reference.chunks).toEqual([]);
    s = applyAnswerEvent(
      s,
      ev({
        answer: '',
        final: true,
        reference: {
          total: 1,
          chunks: [chunk],
          doc_aggs: [{ doc_name: 'france.txt', doc_id: 'd1', count: 1 }],
        },
      }),
    );
    expect(s.final).toBe(true);
    expect(s.content).toBe('Paris is the capital');
    expect(s.reference).toEqual({
      total: 1,
      chunks: [chunk],
      doc_aggs: [{ doc_name: 'france.txt', doc_id: 'd1', count: 1 }],
    });
  });

  it('keeps the whole answer of a final-only event (the empty response)', () => {
    const s = applyAnswerEvent(
      startAnswer(),
      ev({ answer: 'Nothing about that here.', final: true, reference: { chunks: [], doc_aggs: [] } }),
    );
    expect(s).toMatchObject({ content: 'Nothing about that here.', final: true });
  });

  it('turns thinking markers into <think>…</think>, which the view shows apart', () => {
    let s = startAnswer();
    s = applyAnswerEvent(s, ev({ answer: '', start_to_think: true }));
    s = applyAnswerEvent(s, ev({ answer: 'Let me see.' }));
    expect(splitThinking(s.content)).toEqual({ thinking: 'Let me see.', thinkingOpen: true, answer: '' });
    s = applyAnswerEvent(s, ev({ answer: '', end_to_think: true }));
    s = applyAnswerEvent(s, ev({ answer: 'Paris.' }));
    expect(s.content).toBe('<think>Let me see.</think>Paris.');
    expect(splitThinking(s.content)).toEqual({
      thinking: 'Let me see.',
      thinkingOpen: false,
      answer: 'Paris.',
    });
  });

  it('ends with the message of an error event', () => {
    let s = applyAnswerEvent(startAnswer(), ev({ answer: 'Par' }));
    s = applyAnswerEvent(s, {
      code: 500,
      message: 'upstream timed out',
      data: { answer: '**ERROR**: upstream timed out', reference: [] },
    });
    expect(s).toMatchObject({ error: 'upstream timed out', final: true, content: 'Par' });
  });

  it('ignores events without answer data', () => {
    const s = startAnswer();
    expect(applyAnswerEvent(s, { code: 0, message: '', data: null })).toBe(s);
  });
});

describe('references', () => {
  it('treats malformed or empty stored entries as no reference', () => {
    for (const bad of [null, undefined, [], 'x', {}])
      expect(toReference(bad)).toEqual({ chunks: [], doc_aggs: [] });
  });

  it('reads the legacy chunk form (chat API) as the web form', () => {
    expect(
      toReferenceChunk({
        chunk_id: 'c1',
        content_with_weight: 'text',
        doc_id: 'd1',
        doc_name: 'a.md',
        kb_id: 'k1',
        similarity: 0.5,
      }),
    ).toMatchObject({
      id: 'c1',
      content: 'text',
      document_id: 'd1',
      document_name: 'a.md',
      dataset_id: 'k1',
      similarity: 0.5,
    });
  });
});

describe('splitThinking', () => {
  it('leaves answers without reasoning alone', () => {
    expect(splitThinking('Just an answer')).toEqual({
      thinking: null,
      thinkingOpen: false,
      answer: 'Just an answer',
    });
  });
});
