import { describe, expect, it } from 'vitest';
import { writeCfb } from '../../../test/fixtures/office/cfb-writer.js';
import { compressRtf, writeMsg } from '../../../test/fixtures/office/msg-writer.js';
import type { EmailAttachment } from './eml.js';
import { decompressRtf, parseMsg } from './msg.js';

const opts = { ext: 'msg', fileName: 'm.msg' };

describe('parseMsg', () => {
  it('reads headers, recipients, the HTML body and attachments of an Outlook message', async () => {
    const buf = writeMsg({
      subject: 'Budget 2024',
      senderName: 'Ann Smith',
      senderSmtp: 'ann@example.com',
      displayTo: 'Bob',
      body: 'plain fallback',
      html: '<html><body><p>Dear Bob,</p><ul><li>rent</li><li>food</li></ul></body></html>',
      submitTime: new Date(Date.UTC(2024, 2, 1, 9, 30)),
      recipients: [
        { name: 'Bob', smtp: 'bob@example.com', type: 1 },
        { name: 'Carol', smtp: 'carol@example.com', type: 2 },
        { name: 'Hidden', smtp: 'h@example.com', type: 3 },
      ],
      attachments: [{ filename: 'numbers.csv', data: Buffer.from('a,b\n1,2\n') }],
    });
    const doc = await parseMsg(buf, opts);
    expect(doc.title).toBe('Budget 2024');
    expect(doc.sections).toEqual([
      {
        kind: 'header',
        text: 'From: Ann Smith <ann@example.com>\nTo: Bob <bob@example.com>\nCc: Carol <carol@example.com>\nSubject: Budget 2024\nDate: 2024-03-01T09:30:00.000Z',
        fields: {
          from: 'Ann Smith <ann@example.com>',
          to: 'Bob <bob@example.com>',
          cc: 'Carol <carol@example.com>',
          subject: 'Budget 2024',
          date: '2024-03-01T09:30:00.000Z',
        },
      },
      { kind: 'text', text: 'Dear Bob,' },
      { kind: 'list', text: '- rent\n- food' },
    ]);
    const att = doc.fields?.attachments as EmailAttachment[];
    expect(att.map((a) => [a.filename, a.ext, a.content.toString()])).toEqual([
      ['numbers.csv', 'csv', 'a,b\n1,2\n'],
    ]);
  });

  it('falls back to the plain body, then to the compressed RTF body', async () => {
    const plain = await parseMsg(writeMsg({ subject: 'S', body: 'Just text\r\n\r\nSecond' }), opts);
    expect(plain.sections.slice(1).map((s) => s.text)).toEqual(['Just text', 'Second']);
    const rtf =
      '{\\rtf1\\ansi\\ansicpg1252\\pard Hello from {\\b RTF}\\par\\pard\\plain Again, hello from RTF\\par}';
    const fromRtf = await parseMsg(writeMsg({ subject: 'R', rtf }), opts);
    expect(fromRtf.sections.slice(1)).toEqual([
      { kind: 'text', text: 'Hello from RTF' },
      { kind: 'text', text: 'Again, hello from RTF' },
    ]);
  });

  it('decompresses LZFu with back-references and the end marker', () => {
    const raw = Buffer.from('{\\rtf1\\ansi\\pard hello hello hello world\\par}', 'latin1');
    const packed = compressRtf(raw);
    expect(packed.length).toBeLessThan(raw.length + 16);
    expect(decompressRtf(packed).toString('latin1')).toBe(raw.toString('latin1'));
  });

  it('refuses empty files, non-OLE2 input and compound files that are not messages', async () => {
    await expect(parseMsg(Buffer.alloc(0), opts)).rejects.toThrow('The file is empty.');
    await expect(parseMsg(Buffer.from('From: a@b.c\r\n\r\nhi'), opts)).rejects.toThrow(
      'This is not a valid MSG file (it is not an Outlook message).',
    );
    await expect(parseMsg(writeCfb([{ path: 'Workbook', data: Buffer.alloc(10) }]), opts)).rejects.toThrow(
      'This is not a valid MSG file: the compound file contains no Outlook message.',
    );
  });
});
