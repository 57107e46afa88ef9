/**
 * Web hits as citation chunks and prompt text (AGENTS.md §10.1 `_retrieve_chunks` / `kb_prompt`):
 * content without data-URI images, cut at 10 000 characters; `chunk_id` = `doc_id` = sha1(content)
 * mod 10^8; blocks `ID: <n>` / Title / URL / Content, each starting with a newline.
 */
import crypto from 'node:crypto';
import type { DocAggregate, RetrievedChunk } from '@lectern/agent-core';

export interface WebHit {
  title: string;
  url: string;
  content: string;
  score?: number;
}

function sha1Mod(text: string, mod: bigint): string {
  return (BigInt(`0x${crypto.createHash('sha1').update(text).digest('hex')}`) % mod).toString();
}

const DATA_IMAGE = /!\[[^\]]*\]\(data:image\/[^)]*\)/g;
/** Prompt budget: ~97 % of 200 000 tokens, counted as characters / 4. */
const PROMPT_CHAR_BUDGET = Math.floor(200_000 * 0.97 * 4);

export function hitsToChunks(hits: WebHit[]): { chunks: RetrievedChunk[]; docAggs: DocAggregate[] } {
  const chunks: RetrievedChunk[] = [];
  for (const h of hits) {
    const content = h.content.replace(DATA_IMAGE, '').slice(0, 10_000);
    if (!content.trim()) continue;
    const id = sha1Mod(content, 100_000_000n);
    chunks.push({
      chunk_id: id,
      content_with_weight: content,
      doc_id: id,
      docnm_kwd: h.title,
      kb_id: '',
      similarity: h.score ?? 1,
      url: h.url,
    });
  }
  const docAggs = chunks.map((c) => ({ doc_name: c.docnm_kwd, doc_id: c.doc_id, count: 1, url: c.url }));
  return { chunks, docAggs };
}

export function chunksToPrompt(chunks: RetrievedChunk[]): string {
  const blocks: string[] = [];
  let used = 0;
  for (const c of chunks) {
    const block = `\nID: ${sha1Mod(c.chunk_id, 500n)}\n├── Title: ${c.docnm_kwd}\n├── URL: ${c.url ?? ''}\n└── Content:\n${c.content_with_weight}`;
    used += block.length;
    if (used > PROMPT_CHAR_BUDGET) break;
    blocks.push(block);
  }
  return blocks.join('\n');
}
