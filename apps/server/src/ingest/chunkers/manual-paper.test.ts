import { describe, expect, it } from 'vitest';
import { countTokens } from '../tokens.js';
import { chunkDocument } from './index.js';
import { manualLevels, mostFrequentLevel } from './manual.js';
import { BODY } from './numbering.js';
import { ABSTRACT_KEYWORDS } from './paper.js';
import { contents, ctx, doc, figure, table, text, title } from './test-fixtures.js';

const P1 =
  'You need Node 20, two gigabytes of memory and a writable data folder before installing the service on a server that other people in your team can reach, ideally behind a reverse proxy with TLS.';
const P2 =
  'Download the archive, unpack it into the target folder and run the installer script as an administrator; it checks all of the requirements first and stops with a clear message if one is missing.';
const P3 =
  'The server listens on port 8080 unless the PORT variable is set in the environment of the process that starts it on your own machine, for example through a systemd unit file.';
const P4 =
  'Logs are written to the data folder and rotated daily; keep at least seven days of them because support needs them for most of the cases that customers open with us every week.';

describe('manual', () => {
  it('groups content under the most frequent heading level and merges up to the token limit', () => {
    expect([P1, P2, P3, P4].every((p) => countTokens(p) > 32 && countTokens(p) <= 40)).toBe(true);
    const d = doc([
      title('Installation', 1),
      title('Requirements', 2),
      text(P1),
      title('Steps', 2),
      text(P2),
      title('Configuration', 1),
      title('Ports', 2),
      text(P3),
      text(P4),
      table('<table><tr><td>8080</td></tr></table>', '8080'),
    ]);
    expect(mostFrequentLevel(manualLevels(d.sections))).toBe(2);
    const chunks = chunkDocument('manual', d, ctx({ chunk_token_num: 80 }));
    expect(contents(chunks)).toEqual([
      `Installation\nRequirements\n${P1}`,
      `Steps\n${P2}`,
      `Configuration\nPorts\n${P3}\n${P4}`,
      '<table><tr><td>8080</td></tr></table>',
    ]);
    // A lower limit splits the Ports section.
    expect(contents(chunkDocument('manual', d, ctx({ chunk_token_num: 40 }))).slice(2, 4)).toEqual([
      `Configuration\nPorts\n${P3}`,
      P4,
    ]);
  });

  it('derives heading levels from font statistics when the parser gives none', () => {
    const d = doc([
      { kind: 'text', text: 'Getting started', fontSize: 18 },
      { kind: 'text', text: P1, fontSize: 10 },
      { kind: 'text', text: P2, fontSize: 10 },
      { kind: 'text', text: 'Operations', fontSize: 18 },
      { kind: 'text', text: 'Ports', fontSize: 14 },
      { kind: 'text', text: P3, fontSize: 10 },
      { kind: 'text', text: 'Logging', fontSize: 14 },
      { kind: 'text', text: P4, fontSize: 10 },
    ]);
    expect(manualLevels(d.sections)).toEqual([1, BODY, BODY, 1, 2, BODY, 2, BODY]);
    expect(contents(chunkDocument('manual', d, ctx({ chunk_token_num: 512 })))).toEqual([
      `Getting started\n${P1}\n${P2}`,
      `Operations\nPorts\n${P3}\nLogging\n${P4}`,
    ]);
  });
});

describe('paper', () => {
  const paper = () =>
    doc([
      title('Attention Is All You Need', 1, { positions: [[1, 100, 500, 50, 80]] }),
      text('Ashish Vaswani, Noam Shazeer', [[1, 150, 450, 90, 100]]),
      text('Google Brain', [[1, 200, 400, 105, 115]]),
      title('Abstract', 2, { positions: [[1, 280, 320, 130, 140]] }),
      text('The dominant sequence transduction models are based on recurrent networks.', [
        [1, 100, 500, 145, 170],
      ]),
      text('We propose the Transformer.', [[1, 100, 500, 172, 180]]),
      title('1 Introduction', 2),
      text('Recurrent neural networks have been established.'),
      title('2 Background', 2),
      text('The goal of reducing sequential computation.'),
      figure('Figure 1: The Transformer architecture.'),
      text('Self-attention relates positions.'),
    ]);

  it('detects title, authors and abstract; the abstract is one chunk; the body splits at the main heading level', () => {
    const chunks = chunkDocument('paper', paper(), ctx());
    const fields = {
      title_tks: 'Attention Is All You Need',
      authors_tks: 'Ashish Vaswani, Noam Shazeer\nGoogle Brain',
    };
    expect(chunks[0]).toEqual({
      content_with_weight:
        'The dominant sequence transduction models are based on recurrent networks.\nWe propose the Transformer.',
      positions: [
        [1, 280, 320, 130, 140],
        [1, 100, 500, 145, 170],
        [1, 100, 500, 172, 180],
      ],
      important_kwd: ABSTRACT_KEYWORDS,
      fields,
    });
    expect(contents(chunks.slice(1))).toEqual([
      '1 Introduction\nRecurrent neural networks have been established.',
      '2 Background\nThe goal of reducing sequential computation.\nSelf-attention relates positions.',
      'Figure 1: The Transformer architecture.',
    ]);
    expect(chunks[3].doc_type_kwd).toBe('image');
    expect(chunks.every((c) => JSON.stringify(c.fields) === JSON.stringify(fields))).toBe(true);
  });

  it('reads an inline "Abstract —" paragraph and works without a detectable abstract', () => {
    const inline = doc([
      title('On Tokens', 1),
      text('A. Author'),
      text('Abstract — We count tokens quickly.'),
      title('1 Method', 2),
      text('Slice long runs.'),
    ]);
    expect(contents(chunkDocument('paper', inline, ctx()))).toEqual([
      'We count tokens quickly.',
      '1 Method\nSlice long runs.',
    ]);
    const none = doc([title('Notes', 1), text('Plain body text.')]);
    expect(chunkDocument('paper', none, ctx())).toEqual([
      { content_with_weight: 'Plain body text.', positions: [], fields: { title_tks: 'Notes' } },
    ]);
  });
});
