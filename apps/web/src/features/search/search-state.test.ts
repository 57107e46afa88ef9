import { describe, expect, it } from 'vitest';
import { cleanRelated, mindMapTree, storedKbIds, storeKbIds } from './search-state';

describe('search page helpers', () => {
  it('turns the mind map into a tree with unique keys, even for repeated labels', () => {
    const tree = mindMapTree({
      id: 'Energy',
      children: [
        { id: 'Solar', children: [{ id: 'Panels' }, { id: 'Panels' }] },
        { id: 'Wind', children: [] },
      ],
    });
    expect(tree).toEqual([
      {
        key: '0',
        title: 'Energy',
        children: [
          {
            key: '0-0',
            title: 'Solar',
            children: [
              { key: '0-0-0', title: 'Panels' },
              { key: '0-0-1', title: 'Panels' },
            ],
          },
          { key: '0-1', title: 'Wind' },
        ],
      },
    ]);
    expect(mindMapTree(null)).toEqual([]);
    expect(mindMapTree({} as never)).toEqual([]);
  });

  it('cleans related questions', () => {
    expect(
      cleanRelated(
        [' How do panels work? ', '', 'how do panels work?', 'What is solar?', 42],
        'What is solar?',
      ),
    ).toEqual(['How do panels work?']);
    expect(cleanRelated(null, 'q')).toEqual([]);
  });

  it('remembers the chosen knowledge bases', () => {
    localStorage.clear();
    expect(storedKbIds()).toEqual([]);
    storeKbIds(['a', 'b']);
    expect(storedKbIds()).toEqual(['a', 'b']);
    localStorage.setItem('lectern.search.kbs', '{bad');
    expect(storedKbIds()).toEqual([]);
  });
});
