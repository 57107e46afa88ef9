import { describe, expect, it } from 'vitest';
import type { EmailAttachment } from './eml.js';
import { parseEml } from './eml.js';

const csv = 'name,qty\nPen,3\n';
const eml = [
  'From: "Ann Smith" <ann@example.com>',
  'To: bob@example.com, "Carol" <carol@example.com>',
  'Cc: team@example.com',
  'Subject: =?UTF-8?B?UXVhcnRlcmx5IHJlcG9ydCDinJM=?=',
  'Date: Tue, 02 Jan 2024 10:00:00 +0000',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="outer"',
  '',
  '--outer',
  'Content-Type: multipart/related; boundary="rel"',
  '',
  '--rel',
  'Content-Type: multipart/alternative; boundary="alt"',
  '',
  '--alt',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Hello Bob,',
  '',
  'numbers below.',
  '--alt',
  'Content-Type: text/html; charset=utf-8',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  '<p>Hello Bob,</p><table><tr><th>Q</th><th>Sales</th></tr><tr><td>Q1</td><td>10=',
  '0</td></tr></table><img src=3D"cid:logo">',
  '--alt--',
  '--rel',
  'Content-Type: image/png',
  'Content-ID: <logo>',
  'Content-Disposition: inline',
  'Content-Transfer-Encoding: base64',
  '',
  'iVBORw0KGgo=',
  '--rel--',
  '--outer',
  'Content-Type: text/csv; name="items.csv"',
  'Content-Disposition: attachment; filename="items.csv"',
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.from(csv).toString('base64'),
  '--outer--',
  '',
].join('\r\n');

describe('parseEml', () => {
  it('gives a header section, the HTML body with its table, and the attachments for the pipeline', async () => {
    const doc = await parseEml(Buffer.from(eml), { ext: 'eml', fileName: 'm.eml' });
    expect(doc.title).toBe('Quarterly report ✓');
    expect(doc.sections).toEqual([
      {
        kind: 'header',
        text:
          'From: Ann Smith <ann@example.com>\nTo: bob@example.com, Carol <carol@example.com>\nCc: team@example.com\n' +
          'Subject: Quarterly report ✓\nDate: 2024-01-02T10:00:00.000Z',
        fields: {
          from: 'Ann Smith <ann@example.com>',
          to: 'bob@example.com, Carol <carol@example.com>',
          cc: 'team@example.com',
          subject: 'Quarterly report ✓',
          date: '2024-01-02T10:00:00.000Z',
        },
      },
      { kind: 'text', text: 'Hello Bob,' },
      {
        kind: 'table',
        text: 'Q | Sales\nQ1 | 100',
        html: '<table><tr><th>Q</th><th>Sales</th></tr><tr><td>Q1</td><td>100</td></tr></table>',
      },
    ]);
    const attachments = doc.fields?.attachments as EmailAttachment[];
    expect(attachments).toHaveLength(1);
    expect(attachments[0]).toMatchObject({ filename: 'items.csv', ext: 'csv' });
    expect(attachments[0].content.toString()).toBe(csv);
    expect(doc.notes).toEqual(['1 attachment(s) found.']);
  });

  it('uses the plain-text body when there is no HTML part', async () => {
    const plain = 'From: a@b.c\r\nSubject: Hi\r\n\r\nLine one\r\nline two\r\n\r\nSecond paragraph\r\n';
    const doc = await parseEml(Buffer.from(plain), { ext: 'eml', fileName: 'm.eml' });
    expect(doc.sections.map((s) => [s.kind, s.text])).toEqual([
      ['header', 'From: a@b.c\nSubject: Hi'],
      ['text', 'Line one\nline two'],
      ['text', 'Second paragraph'],
    ]);
    expect(doc.fields).toEqual({ attachments: [] });
  });

  it('refuses empty files and files that are not e-mails', async () => {
    await expect(parseEml(Buffer.alloc(0), { ext: 'eml', fileName: 'm.eml' })).rejects.toThrow(
      'The file is empty.',
    );
    await expect(parseEml(Buffer.from('\r\n\r\n'), { ext: 'eml', fileName: 'm.eml' })).rejects.toThrow(
      'This is not a valid e-mail file: it has neither headers nor a body.',
    );
  });
});
