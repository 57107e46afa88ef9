/**
 * Parser for GraphRAG's extraction record format (API.md §19.10):
 *
 *   ("entity"<|>NAME<|>TYPE<|>DESCRIPTION)##
 *   ("relationship"<|>SOURCE<|>TARGET<|>DESCRIPTION<|>KEYWORDS<|>STRENGTH)##
 *   <|COMPLETE|>
 *
 * Models bend the format in every way: records on separate lines without `##`, missing parentheses or
 * quotes, `Entity`/`ENTITY`, spaces around delimiters, GraphRAG's 5-field relationship without keywords,
 * prose before and after, `<think>` blocks, markdown fences. Everything recognisable is kept; a piece that
 * tries to be a record and cannot be read is skipped and counted as malformed; prose is ignored.
 * Entity names are cleaned and upper-cased (as GraphRAG does) so the same entity from two chunks merges.
 */

export const TUPLE_DELIMITER = '<|>';
export const RECORD_DELIMITER = '##';
export const COMPLETION_DELIMITER = '<|COMPLETE|>';

export interface ExtractedEntity {
  name: string;
  /** Upper-cased entity type, one of the configured ones. */
  type: string;
  description: string;
}

export interface ExtractedRelation {
  source: string;
  target: string;
  description: string;
  keywords: string[];
  /** Relationship strength as given (1 when missing or not a number). */
  strength: number;
}

export interface RecordParseResult {
  entities: ExtractedEntity[];
  relations: ExtractedRelation[];
  /** Pieces that looked like records but could not be read. */
  malformed: number;
  /** Entities dropped because their type is not among the configured types. */
  filteredByType: number;
  /** Whether the completion marker was present. */
  complete: boolean;
}

const THINK_RE = /<think>[\s\S]*?(<\/think>|$)/gi;
const FENCE_RE = /^\s*```[a-z]*\s*$/gim;
const COMPLETE_RE = /<\|?\s*COMPLETE\s*\|?>/i;
/** A record starts with an optional "(" and a quoted or bare record tag followed by the delimiter. */
const RECORD_START = String.raw`\(?\s*["'“”]?\s*(?:entity|relationship|relation)\s*["'“”]?\s*<\|>`;
const SPLIT_BEFORE_RECORD_RE = new RegExp(String.raw`\n(?=\s*${RECORD_START})`, 'i');
const LOOKS_LIKE_RECORD_RE = new RegExp(
  String.raw`^\s*\(?\s*["'“”]?\s*(?:entity|relationship|relation)\b`,
  'i',
);

/** Trims whitespace, quotes and stray brackets around a field; collapses inner whitespace. */
export function cleanField(raw: string): string {
  return (
    raw
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
      .replace(/[\u0000-\u001f\u007f]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^["'“”‘’`]+|["'“”‘’`]+$/g, '')
      .trim()
  );
}

/** The canonical form of an entity name: cleaned, upper-cased. */
export function normalizeEntityName(raw: string): string {
  return cleanField(raw).toUpperCase();
}

export function normalizeEntityType(raw: string): string {
  return cleanField(raw).replace(/\s+/g, ' ').toUpperCase();
}

function stripRecordShell(piece: string): string {
  let s = piece.trim();
  // Trailing separators a model leaves around the record.
  s = s.replace(/(?:\s*(?:##|,|;))+\s*$/, '').trim();
  if (s.startsWith('(')) s = s.slice(1);
  if (s.endsWith(')')) s = s.slice(0, -1);
  return s.trim();
}

function parseStrength(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const s = cleanField(raw);
  if (!/^[-+]?\d+(?:\.\d+)?$/.test(s)) return null;
  return Number(s);
}

function splitKeywords(raw: string): string[] {
  const seen = new Set<string>();
  for (const k of cleanField(raw).split(/[,，;；]/)) {
    const kw = cleanField(k);
    if (kw) seen.add(kw);
  }
  return [...seen];
}

/** Splits an answer into candidate record pieces. */
function recordPieces(text: string): string[] {
  return text
    .split(RECORD_DELIMITER)
    .flatMap((p) => p.split(SPLIT_BEFORE_RECORD_RE))
    .map((p) => p.trim())
    .filter(Boolean);
}

export interface ParseOptions {
  /** Allowed entity types (case-insensitive); empty = every type allowed. */
  entityTypes: readonly string[];
}

export function parseGraphRecords(answer: string, options: ParseOptions): RecordParseResult {
  const allowed = new Set(options.entityTypes.map(normalizeEntityType).filter(Boolean));
  const result: RecordParseResult = {
    entities: [],
    relations: [],
    malformed: 0,
    filteredByType: 0,
    complete: false,
  };
  let text = (answer ?? '').replace(THINK_RE, '').replace(FENCE_RE, '');
  const done = COMPLETE_RE.exec(text);
  if (done) {
    result.complete = true;
    text = text.slice(0, done.index);
  }
  for (const piece of recordPieces(text)) {
    if (!piece.includes(TUPLE_DELIMITER)) {
      // A bare "(entity ..." without delimiters is a broken record; anything else is prose.
      if (LOOKS_LIKE_RECORD_RE.test(piece)) result.malformed++;
      continue;
    }
    const fields = stripRecordShell(piece).split(TUPLE_DELIMITER);
    const tag = cleanField(fields[0]).toLowerCase();
    if (tag === 'entity') {
      const entity = readEntity(fields);
      if (!entity) result.malformed++;
      else if (allowed.size > 0 && !allowed.has(entity.type)) result.filteredByType++;
      else result.entities.push(entity);
    } else if (tag === 'relationship' || tag === 'relation') {
      const relation = readRelation(fields);
      if (relation) result.relations.push(relation);
      else result.malformed++;
    } else if (LOOKS_LIKE_RECORD_RE.test(piece) || /^\s*\(/.test(piece)) {
      result.malformed++;
    }
  }
  return result;
}

function readEntity(fields: string[]): ExtractedEntity | null {
  if (fields.length < 4) return null;
  const name = normalizeEntityName(fields[1]);
  const type = normalizeEntityType(fields[2]);
  // A description that itself contained the delimiter is kept whole.
  const description = cleanField(fields.slice(3).join(' '));
  if (!name || !type || !description) return null;
  return { name, type, description };
}

function readRelation(fields: string[]): ExtractedRelation | null {
  if (fields.length < 4) return null;
  const source = normalizeEntityName(fields[1]);
  const target = normalizeEntityName(fields[2]);
  if (!source || !target || source === target) return null;
  const rest = fields.slice(3);
  let strength = 1;
  // The strength is the last field when it is a number (GraphRAG has 5 fields, LightRAG 6).
  const last = parseStrength(rest[rest.length - 1]);
  if (rest.length >= 2 && last !== null) {
    strength = last;
    rest.pop();
  }
  const description = cleanField(rest[0] ?? '');
  const keywords = rest.length >= 2 ? splitKeywords(rest.slice(1).join(',')) : [];
  if (!description) return null;
  return { source, target, description, keywords, strength };
}
