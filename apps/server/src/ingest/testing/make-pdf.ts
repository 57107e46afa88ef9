/**
 * A small writer of real text PDFs for tests and benches (no PDF library needed): Helvetica text,
 * one content stream per page, a correct xref table, and optionally the standard security handler
 * (revision 2, 40-bit RC4) with a user password, which readers must refuse without the password.
 */
import crypto from 'node:crypto';

const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
    out[n] = data[n] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

function md5(...parts: Buffer[]): Buffer {
  const h = crypto.createHash('md5');
  for (const p of parts) h.update(p);
  return h.digest();
}

function padded(password: string): Buffer {
  return Buffer.concat([Buffer.from(password, 'latin1'), PAD]).subarray(0, 32);
}

function escapeText(s: string): string {
  return s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');
}

export interface PdfOptions {
  /** Require this user password (standard security handler R2); readers without it must refuse. */
  userPassword?: string;
  fontSize?: number;
}

/** Builds a PDF whose page i shows `pages[i]` (one string per line) from the top-left margin down. */
export function makePdf(pages: string[][], opts: PdfOptions = {}): Buffer {
  const size = opts.fontSize ?? 11;
  const fileId = crypto.createHash('md5').update(JSON.stringify(pages)).digest();
  let key: Buffer | null = null;
  let encryptDict = '';
  if (opts.userPassword !== undefined) {
    const owner = rc4(md5(padded(`${opts.userPassword}-owner`)).subarray(0, 5), padded(opts.userPassword));
    const p = Buffer.alloc(4);
    p.writeInt32LE(-44);
    key = md5(padded(opts.userPassword), owner, p, fileId).subarray(0, 5);
    const user = rc4(key, PAD);
    encryptDict = `<< /Filter /Standard /V 1 /R 2 /Length 40 /P -44 /O <${owner.toString('hex')}> /U <${user.toString('hex')}> >>`;
  }
  const objKey = (num: number) => {
    if (!key) return null;
    const salt = Buffer.from([num & 255, (num >> 8) & 255, (num >> 16) & 255, 0, 0]);
    return md5(key, salt).subarray(0, Math.min(key.length + 5, 16));
  };

  const objects: Buffer[] = [];
  const add = (body: Buffer | string) => {
    objects.push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
    return objects.length;
  };
  const stream = (num: number, content: string) => {
    const k = objKey(num);
    const data = k ? rc4(k, Buffer.from(content, 'latin1')) : Buffer.from(content, 'latin1');
    return Buffer.concat([
      Buffer.from(`<< /Length ${data.length} >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream', 'latin1'),
    ]);
  };

  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // pages tree, filled below
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const lines of pages) {
    const contentNum = objects.length + 1;
    const text = lines.map((l) => `(${escapeText(l)}) Tj T*`).join('\n');
    add(stream(contentNum, `BT /F1 ${size} Tf ${size + 3} TL 72 740 Td\n${text}\nET`));
    kids.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentNum} 0 R >>`,
      ),
    );
  }
  objects[1] = Buffer.from(
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`,
    'latin1',
  );
  const encryptNum = key ? add(encryptDict) : 0;

  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = chunks[0].length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const obj = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    chunks.push(obj);
    length += obj.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ].join('');
  const id = fileId.toString('hex');
  const trailer =
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /ID [<${id}> <${id}>]${encryptNum ? ` /Encrypt ${encryptNum} 0 R` : ''} >>\n` +
    `startxref\n${length}\n%%EOF\n`;
  chunks.push(Buffer.from(xref + trailer, 'latin1'));
  return Buffer.concat(chunks);
}

/** `n` pages of ordinary English prose, `linesPerPage` lines each; the middle line says `<seed> page <n> marker line.` */
export function textPages(n: number, linesPerPage = 40, seed = 'Lectern'): string[][] {
  const words = [
    'retrieval',
    'document',
    'parsing',
    'chunk',
    'index',
    'knowledge',
    'answer',
    'question',
    'model',
    'vector',
    'table',
    'figure',
    'section',
    'page',
    'reader',
    'search',
    'token',
    'budget',
    'layout',
    'column',
  ];
  const pages: string[][] = [];
  let k = seed.length;
  for (let p = 0; p < n; p++) {
    const lines: string[] = [];
    const marker = Math.floor(linesPerPage / 2);
    for (let l = 0; l < linesPerPage; l++) {
      if (l === marker) {
        lines.push(`${seed} page ${p + 1} marker line.`);
        continue;
      }
      const line: string[] = [];
      for (let w = 0; w < 11; w++) {
        k = (k * 1103515245 + 12345) & 0x7fffffff;
        line.push(words[(k >> 16) % words.length]);
      }
      lines.push(`${line.join(' ')}.`);
    }
    pages.push(lines);
  }
  return pages;
}
