import { describe, expect, it } from 'vitest';
import { isLinkable, isReadOnly, linkGroups, movedIds, splitName } from './file-rules';

describe('file rules', () => {
  it('keeps the extension of files on rename, not of folders', () => {
    expect(splitName('report.final.pdf', false)).toEqual({ stem: 'report.final', ext: '.pdf' });
    expect(splitName('.env', false)).toEqual({ stem: '.env', ext: '' });
    expect(splitName('photos.2024', true)).toEqual({ stem: 'photos.2024', ext: '' });
  });

  it('treats the .knowledgebase mirror as read-only and `other` files as not linkable', () => {
    expect(isReadOnly({ source_type: 'knowledgebase' })).toBe(true);
    expect(isLinkable({ type: 'pdf', source_type: '' })).toBe(true);
    expect(isLinkable({ type: 'other', source_type: '' })).toBe(false);
    expect(isLinkable({ type: 'folder', source_type: '' })).toBe(false);
    expect(isLinkable({ type: 'doc', source_type: 'knowledgebase' })).toBe(false);
    expect([...movedIds([{ id: 'a' }, { id: 'b' }])]).toEqual(['a', 'b']);
  });

  it('groups files to link from a KB by the KBs they end up in, keeping their other links', () => {
    const info = (...ids: string[]) =>
      ids.map((kb_id) => ({ kb_id, kb_name: kb_id, document_id: `d-${kb_id}` }));
    expect(
      linkGroups(
        [
          { id: 'f1', kbs_info: [] },
          { id: 'f2', kbs_info: info('other') },
          { id: 'f3', kbs_info: [] },
          { id: 'f4', kbs_info: info('kb', 'other') },
        ],
        'kb',
      ),
    ).toEqual([
      { fileIds: ['f1', 'f3'], kbIds: ['kb'] },
      { fileIds: ['f2', 'f4'], kbIds: ['kb', 'other'] },
    ]);
  });
});
