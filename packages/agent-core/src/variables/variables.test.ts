/** Variable references, resolution and rendering (AGENTS.md §4). */
import { describe, expect, it } from 'vitest';
import { pyJson } from '../util/pyjson.js';
import { findRefs, parseRef, splitRefs } from './refs.js';
import { resolveRef, writeRef, type VariableScope } from './resolve.js';
import { valueToText } from './render.js';
import { TextStream } from '../runtime/text-stream.js';

function scope(): VariableScope & { outputs: Record<string, Record<string, unknown>> } {
  const outputs: Record<string, Record<string, unknown>> = {
    'Agent:A': { content: 'hello', structured: { items: [{ t: 'x' }, { t: 'y' }] }, json: '{"k": [1, 2]}' },
    'Message:M': {},
  };
  const declared: Record<string, string[]> = {
    'Agent:A': ['content', 'structured', 'json'],
    'Message:M': ['content'],
  };
  return {
    outputs,
    globals: { 'sys.query': 'q', 'env.tone': 'formal', 'sys.files': ['a', 'b'] },
    component: (id) => (outputs[id] ? { outputs: outputs[id], declared: new Set(declared[id]) } : undefined),
  };
}

describe('reference syntax', () => {
  it('finds braced references with the RAGFlow pattern (extra braces and spaces taken in)', () => {
    expect(findRefs('Hi {sys.query}, {{ {Agent:A@content} }} and {env.tone} {not a ref} {a@b c}')).toEqual([
      'sys.query',
      'Agent:A@content',
      'env.tone',
    ]);
  });

  it('keeps the spaces around a reference when splitting (Quirk fixed)', () => {
    expect(splitRefs('You picked {UserFillUp:X@color} today')).toEqual([
      { kind: 'text', value: 'You picked ' },
      { kind: 'ref', value: 'UserFillUp:X@color' },
      { kind: 'text', value: ' today' },
    ]);
  });

  it('parses component, output and path; more than one @ is an error', () => {
    expect(parseRef('{Agent:A@structured.items.1.t}')).toEqual({
      componentId: 'Agent:A',
      output: 'structured',
      path: ['items', '1', 't'],
    });
    expect(parseRef(' sys.query ')).toEqual({ global: 'sys.query' });
    expect(() => parseRef('a@b@c')).toThrow("Invalid variable reference: 'a@b@c'");
  });
});

describe('resolution', () => {
  it('resolves globals exactly and raises for a missing key', async () => {
    const s = scope();
    expect(await resolveRef(s, 'sys.query')).toBe('q');
    expect(await resolveRef(s, '{env.tone}')).toBe('formal');
    await expect(resolveRef(s, 'sys.nothing')).rejects.toThrow("Can't find variable: 'sys.nothing'");
  });

  it('gives null for a declared output not produced yet and "" for an undeclared one', async () => {
    const s = scope();
    expect(await resolveRef(s, 'Message:M@content')).toBeNull();
    expect(await resolveRef(s, 'Message:M@other')).toBe('');
    await expect(resolveRef(s, 'Agent:Gone@content')).rejects.toThrow(
      "Can't find variable: 'Agent:Gone@content'",
    );
  });

  it('walks paths by key and index, JSON-decoding strings on the way; a miss is null', async () => {
    const s = scope();
    expect(await resolveRef(s, 'Agent:A@structured.items.1.t')).toBe('y');
    expect(await resolveRef(s, 'Agent:A@json.k.0')).toBe(1);
    expect(await resolveRef(s, 'Agent:A@structured.nope.x')).toBeNull();
    expect(await resolveRef(s, 'Agent:A@content.x')).toBeNull();
  });

  it('writes globals and nested component outputs', () => {
    const s = scope();
    const w = { globals: s.globals, componentOutputs: (id: string) => s.outputs[id] };
    writeRef(w, 'env.tone', 'casual');
    writeRef(w, 'Message:M@meta.a.b', 1);
    expect(s.globals['env.tone']).toBe('casual');
    expect(s.outputs['Message:M']).toEqual({ meta: { a: { b: 1 } } });
  });
});

describe('rendering into text', () => {
  it('null → "", strings as they are, everything else as Python-style JSON', async () => {
    expect(await valueToText(null)).toBe('');
    expect(await valueToText('plain')).toBe('plain');
    expect(await valueToText(['<alpha>', 'bravo'])).toBe('["<alpha>", "bravo"]');
    expect(await valueToText({ a: 1, b: [true, null], c: '中文' })).toBe(
      '{"a": 1, "b": [true, null], "c": "中文"}',
    );
    expect(await valueToText(['a', 'b'], ',')).toBe('a,b');
  });

  it('consumes a stream completely, reasoning excluded', async () => {
    const s = new TextStream(async (push) => {
      push({ kind: 'think_start' });
      push({ kind: 'think', text: 'hmm' });
      push({ kind: 'think_end' });
      push({ kind: 'text', text: 'ans' });
      push({ kind: 'text', text: 'wer' });
    });
    expect(await valueToText(s)).toBe('answer');
  });

  it('pyJson matches json.dumps separators', () => {
    expect(pyJson({ x: [1, 2], y: { z: 'a"b' } })).toBe('{"x": [1, 2], "y": {"z": "a\\"b"}}');
  });
});
