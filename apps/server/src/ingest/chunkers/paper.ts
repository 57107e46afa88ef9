/**
 * paper (API.md §19.7): title, authors and abstract are detected; the abstract is one chunk; the body
 * is split at the most frequent heading level, one chunk per section (sections longer than the token
 * budget are split). Title and authors ride on every chunk as `title_tks` / `authors_tks` fields.
 */
import type { ChunkContext, ChunkDraft, ParsedDocument, Section } from '../types.js';
import {
  configCount,
  configNumber,
  finalizeDrafts,
  isMedia,
  isPageFurniture,
  mergePositions,
} from './common.js';
import { mediaDraft } from './media.js';
import { mergeUnits, unitsOfText, type Unit } from './merge.js';
import { manualLevels, mostFrequentLevel, sectionIds } from './manual.js';

export const ABSTRACT_KEYWORDS = ['abstract', 'summary', 'summarize', '总结', '概括'];

const ABSTRACT_RE = /^\s*(abstract|摘\s*要)\s*[:：.—–-]?\s*/i;
const BODY_START_RE = /^\s*((?:1|I)\.?\s+\S|introduction\b|keywords?\b|index terms\b|引言|关键词|前言)/i;

export interface PaperParts {
  title: string;
  authors: string;
  abstract: string;
  abstractSections: Section[];
  body: Section[];
}

export function paperParts(doc: ParsedDocument): PaperParts {
  const sections = doc.sections.filter(
    (s) => isMedia(s) || (!isPageFurniture(s) && (s.text ?? '').trim() !== ''),
  );
  const firstTitle = sections.slice(0, 8).findIndex((s) => s.kind === 'title');
  let titleIdx = -1;
  let title = (doc.title ?? '').trim();
  if (firstTitle >= 0 && (!title || sections[firstTitle].text.trim() === title)) {
    titleIdx = firstTitle;
    title = sections[firstTitle].text.trim();
  } else if (!title) {
    const first = sections.findIndex((s) => !isMedia(s));
    if (first >= 0 && sections[first].text.trim().length <= 200) {
      titleIdx = first;
      title = sections[first].text.trim();
    }
  } else {
    titleIdx = sections.slice(0, 8).findIndex((s) => s.text.trim() === title);
  }

  const absIdx = sections.findIndex((s, i) => i > titleIdx && !isMedia(s) && ABSTRACT_RE.test(s.text));
  let abstract = '';
  const abstractSections: Section[] = [];
  let bodyStart = titleIdx + 1;
  if (absIdx >= 0) {
    const own = sections[absIdx].text.replace(ABSTRACT_RE, '').trim();
    abstractSections.push(sections[absIdx]);
    const parts = own ? [own] : [];
    let j = absIdx + 1;
    if (!own) {
      for (; j < sections.length; j++) {
        const s = sections[j];
        if (isMedia(s) || s.kind === 'title' || BODY_START_RE.test(s.text)) break;
        parts.push(s.text.trim());
        abstractSections.push(s);
      }
    }
    abstract = parts.join('\n');
    bodyStart = j;
  }
  const authorEnd = absIdx >= 0 ? absIdx : Math.min(sections.length, titleIdx + 1);
  const authorLines = sections
    .slice(titleIdx + 1, authorEnd)
    .filter((s) => !isMedia(s) && s.kind !== 'title' && s.text.trim().length <= 300)
    .slice(0, 6)
    .map((s) => s.text.trim());
  const body = [
    ...sections.slice(titleIdx + 1, absIdx >= 0 ? absIdx : titleIdx + 1).filter((s) => isMedia(s)),
    ...sections.slice(bodyStart),
  ];
  return { title, authors: authorLines.join('\n'), abstract, abstractSections, body };
}

export function chunkPaper(doc: ParsedDocument, ctx: ChunkContext): ChunkDraft[] {
  const parts = paperParts(doc);
  const budget = configNumber(ctx, 'chunk_token_num', 512);
  const fields: Record<string, unknown> = {};
  if (parts.title) fields.title_tks = parts.title;
  if (parts.authors) fields.authors_tks = parts.authors;
  const withFields = (d: ChunkDraft): ChunkDraft =>
    Object.keys(fields).length ? { ...d, fields: { ...fields } } : d;
  const drafts: ChunkDraft[] = [];
  if (parts.abstract) {
    drafts.push(
      withFields({
        content_with_weight: parts.abstract,
        positions: mergePositions(parts.abstractSections.map((s) => s.positions)),
        important_kwd: [...ABSTRACT_KEYWORDS],
      }),
    );
  }

  const body = parts.body;
  const levels = manualLevels(body);
  const ids = sectionIds(levels, mostFrequentLevel(levels));
  const chars = new Set(['\n', '。', '；', '！', '？', '!', '?', ';']);
  const ordered: Array<{ first: number; draft: ChunkDraft }> = [];
  let group: Unit[] = [];
  let groupId = -1;
  const flush = () => {
    for (const m of mergeUnits(group, { chunkTokenNum: budget })) {
      ordered.push({
        first: m.first,
        draft: withFields({ content_with_weight: m.text, positions: m.positions }),
      });
    }
    group = [];
  };
  body.forEach((s, i) => {
    if (isMedia(s)) {
      ordered.push({
        first: i,
        draft: withFields(
          mediaDraft(body, i, configCount(ctx, 'table_context_size'), configCount(ctx, 'image_context_size')),
        ),
      });
      return;
    }
    if (ids[i] !== groupId) {
      flush();
      groupId = ids[i];
    }
    group.push(...unitsOfText(s.text, s.positions ?? [], i, budget, chars));
  });
  flush();
  ordered.sort((a, b) => a.first - b.first);
  return finalizeDrafts([...drafts, ...ordered.map((o) => o.draft)]);
}
