import { describe, expect, it } from 'vitest';
import { UPLOAD_LIMITS } from '@lectern/shared';
import { ACCEPT_ATTRIBUTE, checkBatch, extensionOf, fileProblem, refusedByServer } from './upload-limits';

const file = (name: string, size = 10) => ({ name, size });

describe('upload limits (SPEC §9)', () => {
  it('takes the allowed extensions in any case and refuses others', () => {
    for (const name of ['a.pdf', 'b.DOCX', 'c.xlsx', 'd.xls', 'e.png', 'f.jpeg', 'g.txt', 'h.md', 'i.tiff']) {
      expect(fileProblem(file(name)), name).toBeNull();
    }
    expect(fileProblem(file('run.exe'))).toBe('badExtension');
    expect(fileProblem(file('archive.zip'))).toBe('badExtension');
    expect(fileProblem(file('noextension'))).toBe('badExtension');
    expect(extensionOf('dir/Report.PDF')).toBe('pdf');
    expect(ACCEPT_ATTRIBUTE.split(',')).toContain('.xlsx');
  });

  it('refuses a file over 1 GB and accepts exactly 1 GB', () => {
    expect(UPLOAD_LIMITS.maxFileBytes).toBe(1024 ** 3);
    expect(fileProblem(file('big.pdf', 1024 ** 3))).toBeNull();
    expect(fileProblem(file('big.pdf', 1024 ** 3 + 1))).toBe('tooLarge');
  });

  it('allows at most 32 files in one batch', () => {
    const of = (n: number) => Array.from({ length: n }, (_, i) => file(`f${i}.pdf`));
    expect(checkBatch(of(32)).tooMany).toBe(false);
    expect(checkBatch(of(33)).tooMany).toBe(true);
    // Refused files do not count against the batch.
    const mixed = [...of(32), file('x.exe')];
    const check = checkBatch(mixed);
    expect(check.tooMany).toBe(false);
    expect(check.rejected).toEqual([{ file: file('x.exe'), problem: 'badExtension' }]);
    expect(check.accepted).toHaveLength(32);
  });

  it('honours configured limits', () => {
    const check = checkBatch([file('a.pdf', 11), file('b.pdf', 5)], {
      maxFileBytes: 10,
      maxFilesPerBatch: 1,
    });
    expect(check.rejected.map((r) => r.problem)).toEqual(['tooLarge']);
    expect(check.tooMany).toBe(false);
  });

  it("maps the server's per-file refusals to the files", () => {
    const names = ['a.pdf', 'b.foo', 'c.txt'];
    expect(refusedByServer(names, 0, 'success').size).toBe(0);
    const partial = refusedByServer(names, 500, 'b.foo: This type of file has not been supported yet!');
    expect([...partial]).toEqual([['b.foo', 'This type of file has not been supported yet!']]);
    // A refused batch (bad format, missing KB…) stores nothing: every file failed.
    const all = refusedByServer(names, 102, 'There seems to be an issue with your file format.');
    expect([...all.keys()]).toEqual(names);
    expect(refusedByServer(['a.pdf'], 1999, 'Network anomaly').get('a.pdf')).toBe('Network anomaly');
  });
});
