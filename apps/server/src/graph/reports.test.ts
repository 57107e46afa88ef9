import { describe, expect, it } from 'vitest';
import { assignPageRank, detectCommunities } from './communities.js';
import { buildDocumentSubgraph, createKbGraph, mergeSubgraph } from './kb-graph.js';
import { parseCommunityReport, renderCommunityReport, writeCommunityReports } from './reports.js';
import { ScriptedModel } from './test-fixtures.js';

const GOOD = {
  title: 'Acme and its founders',
  summary: 'Acme is run by Alice and Bob.',
  rating: 7.5,
  rating_explanation: 'Central company.',
  findings: [
    { summary: 'Alice leads', explanation: 'Alice founded Acme.' },
    { summary: 'Bob flies', explanation: 'Bob is the pilot.' },
  ],
};

describe('parseCommunityReport', () => {
  it('reads a clean JSON answer', () => {
    expect(parseCommunityReport(JSON.stringify(GOOD))).toEqual(GOOD);
  });

  it('reads JSON inside think blocks, fences and prose, with trailing commas and smart quotes', () => {
    const answer = `<think>{"title": "not this"}</think>Sure! Here is the report:
\`\`\`json
{
  “title”: “Acme and its founders”,
  "summary": "Acme is run by Alice and Bob.",
  "rating": "8/10",
  "rating_explanation": "Central company.",
  "findings": ["Alice leads", {"summary": "Bob flies", "explanation": "Bob is the pilot.",},],
}
\`\`\`
Hope this helps.`;
    expect(parseCommunityReport(answer)).toEqual({
      title: 'Acme and its founders',
      summary: 'Acme is run by Alice and Bob.',
      rating: 8,
      rating_explanation: 'Central company.',
      findings: [
        { summary: 'Alice leads', explanation: '' },
        { summary: 'Bob flies', explanation: 'Bob is the pilot.' },
      ],
    });
  });

  it('reads what arrived of a truncated answer', () => {
    const cut =
      '{"title": "Acme", "summary": "About Acme", "rating": 6, "findings": [{"summary": "One", "explanation": "First fin';
    expect(parseCommunityReport(cut)).toMatchObject({
      title: 'Acme',
      summary: 'About Acme',
      rating: 6,
      findings: [{ summary: 'One', explanation: 'First fin' }],
    });
  });

  it('returns null for answers without a usable report', () => {
    for (const bad of [
      '',
      'no json here',
      '[1, 2, 3]',
      '{"rating": 5}',
      '{not json at all',
      '{"title": ""}',
    ]) {
      expect(parseCommunityReport(bad)).toBeNull();
    }
  });

  it('clamps ratings into 0..10', () => {
    expect(parseCommunityReport('{"title": "t", "rating": 42}')?.rating).toBe(10);
    expect(parseCommunityReport('{"title": "t", "rating": "n/a"}')?.rating).toBe(0);
  });
});

describe('writeCommunityReports', () => {
  it('prompts with the community tables, renders reports and counts unreadable answers', async () => {
    const kb = createKbGraph();
    const ents = ['ALICE', 'BOB', 'ACME', 'CAROL', 'DAVE', 'ZED'].map((name) => ({
      name,
      type: 'PERSON',
      description: `${name} is here`,
    }));
    const rel = (source: string, target: string) => ({
      source,
      target,
      description: `${source} knows ${target}`,
      keywords: [],
      strength: 5,
    });
    mergeSubgraph(
      kb,
      buildDocumentSubgraph('d', [
        {
          chunkId: 'c',
          docId: 'd',
          entities: ents,
          relations: [
            rel('ALICE', 'BOB'),
            rel('BOB', 'ACME'),
            rel('ALICE', 'ACME'),
            rel('CAROL', 'DAVE'),
            rel('DAVE', 'ZED'),
            rel('CAROL', 'ZED'),
          ],
        },
      ]).graph,
    );
    assignPageRank(kb);
    const communities = detectCommunities(kb, { seed: 1 });
    expect(communities).toHaveLength(2);
    const model = new ScriptedModel((messages) =>
      messages[0].content.includes('ALICE,ALICE is here') ? JSON.stringify(GOOD) : 'I refuse.',
    );
    const res = await writeCommunityReports(kb, communities, { model, concurrency: 2 });
    expect(res.failed).toBe(1);
    expect(res.reports).toHaveLength(1);
    const report = res.reports[0];
    expect(report.entities.sort()).toEqual(['ACME', 'ALICE', 'BOB']);
    expect(model.calls.some((c) => c[0].content.includes('ALICE,BOB,ALICE knows BOB'))).toBe(true);
    const rendered = renderCommunityReport(report);
    expect(rendered.title).toBe('Acme and its founders');
    expect(rendered.content.report).toBe(
      '# Acme and its founders\n\nAcme is run by Alice and Bob.\n\n## Alice leads\n\nAlice founded Acme.\n\n## Bob flies\n\nBob is the pilot.',
    );
    expect(rendered.content.evidences).toBe('Alice founded Acme.\nBob is the pilot.');
  });
});
