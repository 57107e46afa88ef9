/** Message (AGENTS.md §6.8). */
import { describe, expect, it } from 'vitest';
import { runCanvas } from '../runtime/run-canvas.js';
import { collect, dsl, finished, trail } from '../../test/helpers.js';
import { FakeIds, fakePorts, FakeStorage } from '../../test/fakes.js';

const begin = {
  id: 'begin',
  name: 'begin',
  params: { inputs: { name: { name: 'Name', type: 'line' } } },
  downstream: ['Message:M'],
};

function run(params: Record<string, unknown>, opts: { pick?: number; upstream?: 'llm' } = {}) {
  const nodes = opts.upstream
    ? [
        { ...begin, downstream: ['LLM:A'] },
        { id: 'LLM:A', name: 'A', params: { llm_id: 'm@F' }, downstream: ['Message:M'] },
        { id: 'Message:M', name: 'M', params },
      ]
    : [begin, { id: 'Message:M', name: 'M', params }];
  const storage = new FakeStorage();
  const ports = fakePorts(
    [{ reasoning: ['let me ', 'think'], text: ['<think>more</think>', 'The answer [ID:12]'] }],
    {
      ids: new FakeIds(opts.pick ?? 0),
      storage,
    },
  );
  const r = runCanvas({
    dsl: dsl(nodes),
    query: 'q',
    inputs: { name: { type: 'line', value: 'Ada' } },
    taskId: 't',
    ports,
  });
  return { r, storage };
}

describe('Message', () => {
  it('streams literal runs and references, spaces kept, a repeated reference rendered once', async () => {
    const { r } = run({ content: ['Hello {begin@name}, {sys.query}? {begin@name}!'] });
    const events = await collect(r);
    expect(trail(events).filter((t) => t.startsWith('message'))).toEqual([
      'message:"Hello "',
      'message:"Ada"',
      'message:", "',
      'message:"q"',
      'message:"? "',
      'message:"Ada"',
      'message:"!"',
      'message_end',
    ]);
    expect(finished(events, 'Message:M').outputs.content).toBe('Hello Ada, q? Ada!');
    expect(finished(events, 'Message:M').inputs).toEqual({ 'begin@name': 'Ada', 'sys.query': 'q' });
  });

  it('picks one content alternative at random', async () => {
    const { r } = run({ content: ['first', 'second', 'third'] }, { pick: 0.5 });
    expect(finished(await collect(r), 'Message:M').outputs.content).toBe('second');
  });

  it('renders Jinja2 content as one message, references bound to placeholder names', async () => {
    const { r } = run({
      content: ['{% if {sys.query} == "q" %}Dear {begin@name}{% else %}Hi{% endif %}: {{ 1 + 2 }}'],
    });
    const events = await collect(r);
    expect(trail(events).filter((t) => t.startsWith('message'))).toEqual([
      'message:"Dear Ada: 3"',
      'message_end',
    ]);
  });

  it('sends the whole text at once when stream is false', async () => {
    const { r } = run({ content: ['Hello {begin@name}'], stream: false });
    expect(trail(await collect(r)).filter((t) => t.startsWith('message'))).toEqual([
      'message:"Hello Ada"',
      'message_end',
    ]);
  });

  it('passes think markers of a streamed answer through and keeps them out of content', async () => {
    const { r } = run({ content: ['{LLM:A@content}'] }, { upstream: 'llm' });
    const events = await collect(r);
    expect(trail(events).filter((t) => t.startsWith('message') || t.startsWith('think'))).toEqual([
      'think_start',
      'message:"let me "',
      'message:"think"',
      'think_end',
      'think_start',
      'message:"more"',
      'think_end',
      'message:"The answer [ID:12]"',
      'message_end',
    ]);
    expect(finished(events, 'Message:M').outputs.content).toBe('The answer [ID:12]');
    // the text cites [ID:n]: message_end carries the current reference bucket
    const end = events.find((e) => 'event' in e && e.event === 'message_end');
    expect(end && 'event' in end && end.data).toEqual({ reference: { chunks: {}, doc_aggs: {} } });
  });

  it('stores an attachment in the requested format and reports it with status on message_end', async () => {
    const { r, storage } = run({
      content: ['# Report for {begin@name}'],
      output_format: 'docx',
      status: 201,
    });
    const events = await collect(r);
    expect(storage.saved).toEqual([{ content: '# Report for Ada', format: 'docx' }]);
    const end = events.find((e) => 'event' in e && e.event === 'message_end');
    expect(end && 'event' in end && end.data).toEqual({
      status: 201,
      attachment: { doc_id: 'abcdef0123456789', format: 'docx', file_name: 'abcdef01.docx' },
    });
    expect(finished(events, 'Message:M').outputs.attachment).toMatchObject({ format: 'docx' });
  });
});
