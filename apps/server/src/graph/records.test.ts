import { describe, expect, it } from 'vitest';
import { parseGraphRecords } from './records.js';

const TYPES = ['organization', 'person', 'geo', 'event', 'category'];

describe('parseGraphRecords', () => {
  it('reads well-formed entity and relationship records', () => {
    const answer =
      '("entity"<|>Ada Lovelace<|>person<|>A mathematician.)##\n' +
      '("entity"<|>London<|>GEO<|>A city.)##\n' +
      '("relationship"<|>Ada Lovelace<|>London<|>Ada lived in London.<|>residence, city<|>7)\n<|COMPLETE|>';
    const r = parseGraphRecords(answer, { entityTypes: TYPES });
    expect(r.complete).toBe(true);
    expect(r.malformed).toBe(0);
    expect(r.entities).toEqual([
      { name: 'ADA LOVELACE', type: 'PERSON', description: 'A mathematician.' },
      { name: 'LONDON', type: 'GEO', description: 'A city.' },
    ]);
    expect(r.relations).toEqual([
      {
        source: 'ADA LOVELACE',
        target: 'LONDON',
        description: 'Ada lived in London.',
        keywords: ['residence', 'city'],
        strength: 7,
      },
    ]);
  });

  it('tolerates missing ## separators, quotes, case, spaces, fences and think blocks', () => {
    const answer = [
      '<think>Let me find entities ("entity"<|>NOT<|>person<|>x)</think>',
      '```',
      'Here are the records:',
      '(ENTITY <|> "Charles Babbage" <|>  Person <|> "Designed the engine." )',
      '( "Entity"<|>  analytical   engine<|>category<|>A mechanical computer)',
      "('relationship'<|>charles babbage<|>Analytical Engine<|>He designed it<|>design<|>9)",
      '```',
      '<|complete|>',
      '("entity"<|>After<|>person<|>ignored after completion)',
    ].join('\n');
    const r = parseGraphRecords(answer, { entityTypes: TYPES });
    expect(r.entities.map((e) => e.name)).toEqual(['CHARLES BABBAGE', 'ANALYTICAL ENGINE']);
    expect(r.entities[0]).toMatchObject({ type: 'PERSON', description: 'Designed the engine.' });
    expect(r.relations).toHaveLength(1);
    expect(r.relations[0]).toMatchObject({
      source: 'CHARLES BABBAGE',
      target: 'ANALYTICAL ENGINE',
      strength: 9,
    });
    expect(r.malformed).toBe(0);
    expect(r.complete).toBe(true);
  });

  it('skips and counts malformed records, keeps the good ones', () => {
    const answer = [
      '("entity"<|>Alice<|>person)', // no description
      '("entity"<|><|>person<|>nameless)', // no name
      '("entity"<|>Bob<|>person<|>A builder.)',
      '("relationship"<|>Bob<|>Bob<|>self loop<|>x<|>1)', // self relation
      '("relationship"<|>Bob)', // too short
      '("thing"<|>Bob<|>?)', // unknown record tag
      '(entity Carol person no delimiters)', // broken record
      'Some prose the model added.',
    ].join('##');
    const r = parseGraphRecords(answer, { entityTypes: TYPES });
    expect(r.entities.map((e) => e.name)).toEqual(['BOB']);
    expect(r.relations).toEqual([]);
    expect(r.malformed).toBe(6);
    expect(r.complete).toBe(false);
  });

  it('filters entity types to the configured ones (case-insensitively) and counts them', () => {
    const answer =
      '("entity"<|>Acme<|>Organization<|>A company.)##("entity"<|>Blue<|>color<|>A colour.)##("entity"<|>Paris<|>geo<|>A city.)';
    const r = parseGraphRecords(answer, { entityTypes: ['ORGANIZATION', 'Geo'] });
    expect(r.entities.map((e) => e.name)).toEqual(['ACME', 'PARIS']);
    expect(r.filteredByType).toBe(1);
    expect(r.malformed).toBe(0);
  });

  it("reads GraphRAG's 5-field relationship (no keywords) and a missing or non-numeric strength", () => {
    const answer = [
      '("relationship"<|>A Corp<|>B Corp<|>A owns B<|>8)',
      '("relationship"<|>A Corp<|>C Corp<|>A sues C<|>lawsuit<|>high)',
      '("relationship"<|>A Corp<|>D Corp<|>A and D merged)',
    ].join('##');
    const r = parseGraphRecords(answer, { entityTypes: TYPES });
    expect(r.relations).toEqual([
      { source: 'A CORP', target: 'B CORP', description: 'A owns B', keywords: [], strength: 8 },
      {
        source: 'A CORP',
        target: 'C CORP',
        description: 'A sues C',
        keywords: ['lawsuit', 'high'],
        strength: 1,
      },
      { source: 'A CORP', target: 'D CORP', description: 'A and D merged', keywords: [], strength: 1 },
    ]);
  });

  it('returns nothing, without throwing, for empty or garbage answers', () => {
    for (const answer of ['', '   ', 'I cannot help with that.', '<|>', '{"entities": []}', '##########']) {
      const r = parseGraphRecords(answer, { entityTypes: TYPES });
      expect(r.entities).toEqual([]);
      expect(r.relations).toEqual([]);
    }
  });

  it('keeps a description that itself contains the delimiter', () => {
    const r = parseGraphRecords('("entity"<|>X Co<|>organization<|>Uses <|> in names)', {
      entityTypes: TYPES,
    });
    expect(r.entities[0].description).toBe('Uses in names');
  });
});
