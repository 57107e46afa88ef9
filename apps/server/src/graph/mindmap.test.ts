import { describe, expect, it } from 'vitest';
import {
  batchTexts,
  buildMindMap,
  combineMindMaps,
  parseMindMapOutline,
  uniqueMindMapIds,
} from './mindmap.js';
import { ScriptedModel } from './test-fixtures.js';

describe('parseMindMapOutline', () => {
  it('turns headings and nested bullets into a tree', () => {
    const md = `<think>planning</think>
\`\`\`markdown
# **Rockets**
## Propulsion
- Liquid fuel
  - Kerosene
  - Hydrogen
- Solid fuel
## History:
1. Goddard
2. Apollo
\`\`\``;
    expect(parseMindMapOutline(md)).toEqual({
      id: 'Rockets',
      children: [
        {
          id: 'Propulsion',
          children: [
            {
              id: 'Liquid fuel',
              children: [
                { id: 'Kerosene', children: [] },
                { id: 'Hydrogen', children: [] },
              ],
            },
            { id: 'Solid fuel', children: [] },
          ],
        },
        {
          id: 'History',
          children: [
            { id: 'Goddard', children: [] },
            { id: 'Apollo', children: [] },
          ],
        },
      ],
    });
  });

  it('puts several titles under a root and survives odd input', () => {
    expect(parseMindMapOutline('# A\n- a1\n# B\n- b1')).toEqual({
      id: 'root',
      children: [
        { id: 'A', children: [{ id: 'a1', children: [] }] },
        { id: 'B', children: [{ id: 'b1', children: [] }] },
      ],
    });
    expect(parseMindMapOutline('')).toEqual({ id: 'root', children: [] });
    expect(parseMindMapOutline('### Deep first\n# Then top')).toEqual({
      id: 'root',
      children: [
        { id: 'Deep first', children: [] },
        { id: 'Then top', children: [] },
      ],
    });
  });
});

describe('uniqueMindMapIds', () => {
  it('suffixes repeated ids with (n) in preorder, keeping the first', () => {
    const tree = {
      id: 'Topic',
      children: [
        { id: 'Summary', children: [{ id: 'Details', children: [] }] },
        {
          id: 'Summary',
          children: [
            { id: 'Details', children: [] },
            { id: 'Summary', children: [] },
          ],
        },
      ],
    };
    expect(uniqueMindMapIds(tree)).toEqual({
      id: 'Topic',
      children: [
        { id: 'Summary', children: [{ id: 'Details', children: [] }] },
        {
          id: 'Summary(1)',
          children: [
            { id: 'Details(1)', children: [] },
            { id: 'Summary(2)', children: [] },
          ],
        },
      ],
    });
    // The stored tree is not changed.
    expect(tree.children[1].id).toBe('Summary');
  });
});

describe('buildMindMap', () => {
  it('outlines batches with the model and merges the trees by title', async () => {
    const model = new ScriptedModel((messages) =>
      messages[0].content.includes('part one')
        ? '# Space\n## Rockets\n- Engines\n## Moon'
        : '# Space\n## Rockets\n- Fuel\n## Mars',
    );
    const texts = ['part one ' + 'x '.repeat(50), 'part two ' + 'y '.repeat(50)];
    const res = await buildMindMap(texts, { model, concurrency: 2, batchTokens: 60 });
    expect(res.batches).toBe(2);
    expect(res.tree).toEqual({
      id: 'root',
      children: [
        {
          id: 'Space',
          children: [
            {
              id: 'Rockets',
              children: [
                { id: 'Engines', children: [] },
                { id: 'Fuel', children: [] },
              ],
            },
            { id: 'Moon', children: [] },
            { id: 'Mars', children: [] },
          ],
        },
      ],
    });
  });

  it('fails with a clear message only when no batch gave a usable answer', async () => {
    const failing = new ScriptedModel(() => {
      throw new Error('boom');
    });
    await expect(buildMindMap(['text'], { model: failing, concurrency: 1 })).rejects.toThrow(
      'Mind map failed: no usable answer from 1 model calls',
    );
    const half = new ScriptedModel((m) => (m[0].content.includes('good') ? '# Good\n- point' : ''));
    const res = await buildMindMap(['good ' + 'a '.repeat(40), 'bad ' + 'b '.repeat(40)], {
      model: half,
      concurrency: 1,
      batchTokens: 50,
    });
    expect(res.failed).toBe(1);
    expect(res.tree).toEqual({ id: 'Good', children: [{ id: 'point', children: [] }] });
  });

  it('batches texts by token budget', () => {
    expect(batchTexts(['a b', 'c d', 'e f'], 4)).toEqual(['a b\n\nc d', 'e f']);
    expect(combineMindMaps([])).toEqual({ id: 'root', children: [] });
  });
});
