/**
 * parser_config defaults per chunk method, deep merge, and the bounds of API.md §19.6 / SPEC §5.
 * Used by the KB and document APIs (create, update, change_parser) and by the chunkers.
 */
import type { ParserConfig } from './types.js';

export const RAPTOR_PROMPT =
  'Please summarize the following paragraphs. Be careful with the numbers, do not make things up. Paragraphs as following:\n      {cluster_content}\nThe above is the content you need to summarize.';

/** The built-in default delimiter of naive chunking when a config carries none (API.md §19.7). */
export const DEFAULT_DELIMITER = '\n!?;。；！？';

type Json = Record<string, unknown>;

const ALWAYS: Json = { table_context_size: 0, image_context_size: 0 };
const STRUCTURED_OFF: Json = { raptor: { use_raptor: false }, graphrag: { use_graphrag: false } };

function naiveDefaults(): Json {
  return {
    layout_recognize: 'DeepDOC',
    chunk_token_num: 512,
    delimiter: '\n',
    auto_keywords: 0,
    auto_questions: 0,
    html4excel: false,
    topn_tags: 3,
    raptor: {
      use_raptor: true,
      prompt: RAPTOR_PROMPT,
      max_token: 256,
      threshold: 0.1,
      max_cluster: 64,
      random_seed: 0,
    },
    graphrag: {
      use_graphrag: true,
      entity_types: ['organization', 'person', 'geo', 'event', 'category'],
      method: 'light',
    },
  };
}

/** parser_config defaults for a chunk method (API.md §19.6); unknown methods get the always-present keys only. */
export function defaultParserConfig(method: string): ParserConfig {
  switch (method) {
    case 'naive':
    case 'general':
      return { ...naiveDefaults(), ...ALWAYS };
    case 'qa':
    case 'manual':
    case 'paper':
    case 'book':
    case 'laws':
    case 'presentation':
      return structuredClone({ ...ALWAYS, ...STRUCTURED_OFF });
    case 'knowledge_graph':
      return structuredClone({
        chunk_token_num: 8192,
        delimiter: '\n',
        entity_types: ['organization', 'person', 'location', 'event', 'time'],
        ...STRUCTURED_OFF,
        ...ALWAYS,
      });
    default:
      return { ...ALWAYS };
  }
}

function isPlainObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);
}

/**
 * Deep merge of `given` over `defaults`: nested objects merge key by key, arrays and scalars replace,
 * `undefined` leaves the default. Neither input is modified.
 */
export function mergeParserConfig(defaults: ParserConfig, given: unknown): ParserConfig {
  return mergeObjects(defaults as Json, isPlainObject(given) ? given : {}) as ParserConfig;
}

/**
 * Deep copy of a config value. Configs are JSON, copied field by field: structuredClone of every
 * level made each merge ~1 ms, and queuing or parsing a document merges several times on the event
 * loop. Anything that is not JSON-shaped still goes through structuredClone.
 */
function cloneValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneValue);
  if (Object.getPrototypeOf(value) !== Object.prototype) return structuredClone(value);
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) out[key] = cloneValue(v);
  return out;
}

function mergeObjects(base: Json, over: Json): Json {
  const out = cloneValue(base) as Json;
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const current = out[key];
    out[key] =
      isPlainObject(current) && isPlainObject(value) ? mergeObjects(current, value) : cloneValue(value);
  }
  return out;
}

/**
 * The config a parse works with: the stored one (which may be partial — `kb/update` stores what the
 * client sent) with every missing key filled from the chunk method's defaults (API.md §19.6).
 */
export function effectiveParserConfig(method: string, stored: unknown): ParserConfig {
  return mergeParserConfig(defaultParserConfig(method), stored);
}

interface IntRule {
  key: string;
  min: number;
  max?: number;
  integer?: boolean;
}

function checkNumber(messages: string[], obj: Json, rule: IntRule, prefix = ''): void {
  const value = obj[rule.key];
  if (value === undefined || value === null) return;
  const name = `\`${prefix}${rule.key}\``;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    messages.push(`${name} must be a number.`);
    return;
  }
  if (rule.integer !== false && !Number.isInteger(value)) {
    messages.push(`${name} must be an integer.`);
    return;
  }
  if (value < rule.min || (rule.max !== undefined && value > rule.max)) {
    messages.push(
      rule.max === undefined
        ? `${name} must be at least ${rule.min}.`
        : `${name} must be between ${rule.min} and ${rule.max}.`,
    );
  }
}

/** Methods whose settings form shows the chunk token number (it is then required, SPEC §5). */
const TOKEN_NUM_METHODS = new Set(['naive', 'general', 'knowledge_graph']);

/**
 * Checks a (merged) parser_config against the bounds of API.md §19.6 and the rules of SPEC §5.
 * Returns readable messages, empty when the config is acceptable. `knowledge_graph` allows its own
 * 8192-token default.
 */
export function validateParserConfig(config: unknown, method = 'naive'): string[] {
  const messages: string[] = [];
  if (!isPlainObject(config)) return ['`parser_config` must be an object.'];
  const cfg = config;

  if (TOKEN_NUM_METHODS.has(method) && (cfg.chunk_token_num === undefined || cfg.chunk_token_num === null)) {
    messages.push('Chunk token number is required.');
  }
  checkNumber(messages, cfg, {
    key: 'chunk_token_num',
    min: 1,
    max: method === 'knowledge_graph' ? 8192 : 2048,
  });
  checkNumber(messages, cfg, { key: 'auto_keywords', min: 0, max: 32 });
  checkNumber(messages, cfg, { key: 'auto_questions', min: 0, max: 10 });
  checkNumber(messages, cfg, { key: 'topn_tags', min: 1, max: 10 });
  checkNumber(messages, cfg, { key: 'task_page_size', min: 1 });
  checkNumber(messages, cfg, { key: 'table_context_size', min: 0 });
  checkNumber(messages, cfg, { key: 'image_context_size', min: 0 });
  checkNumber(messages, cfg, { key: 'overlapped_percent', min: 0, max: 90, integer: false });
  checkNumber(messages, cfg, { key: 'filename_embd_weight', min: 0, max: 1, integer: false });
  if (cfg.task_page_size === null) messages.push('Please input your task page size!');

  for (const key of ['delimiter', 'layout_recognize', 'children_delimiter'] as const) {
    if (cfg[key] !== undefined && cfg[key] !== null && typeof cfg[key] !== 'string') {
      messages.push(`\`${key}\` must be a string.`);
    }
  }
  if (cfg.html4excel !== undefined && typeof cfg.html4excel !== 'boolean') {
    messages.push('`html4excel` must be a boolean.');
  }
  for (const key of ['tag_kb_ids', 'entity_types'] as const) {
    const v = cfg[key];
    if (v !== undefined && (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))) {
      messages.push(`\`${key}\` must be a list of strings.`);
    }
  }
  checkPages(messages, cfg.pages);
  checkRaptor(messages, cfg.raptor);
  checkGraphrag(messages, cfg.graphrag);
  return messages;
}

function pageNumber(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Page ranges `[[from, to], …]`, 1-based; to > from and to > the previous range's to (SPEC §5). */
function checkPages(messages: string[], pages: unknown): void {
  if (pages === undefined || pages === null) return;
  if (!Array.isArray(pages)) {
    messages.push('`pages` must be a list of [from, to] page ranges.');
    return;
  }
  let previousTo: number | undefined;
  for (const range of pages) {
    const pair: unknown[] = Array.isArray(range) ? range : isPlainObject(range) ? [range.from, range.to] : [];
    const from = pageNumber(pair[0]);
    const to = pageNumber(pair[1]);
    if (from === undefined) {
      messages.push('Missing start page number');
      return;
    }
    if (to === undefined) {
      messages.push('Missing end page number (excluded)');
      return;
    }
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1) {
      messages.push('Page numbers must be whole numbers starting at 1.');
      return;
    }
    if (to <= from) {
      messages.push('The end page must be greater than the start page.');
      return;
    }
    if (previousTo !== undefined && to <= previousTo) {
      messages.push("The end page must be greater than the previous range's end page.");
      return;
    }
    previousTo = to;
  }
}

const RAPTOR_REQUIRED: Array<[string, string]> = [
  ['prompt', 'Prompt is required'],
  ['max_token', 'Max token is required'],
  ['threshold', 'Threshold is required'],
  ['max_cluster', 'Max cluster is required'],
  ['random_seed', 'Random seed is required'],
];

function checkRaptor(messages: string[], raptor: unknown): void {
  if (raptor === undefined || raptor === null) return;
  if (!isPlainObject(raptor)) {
    messages.push('`raptor` must be an object.');
    return;
  }
  if (raptor.use_raptor === true) {
    for (const [key, message] of RAPTOR_REQUIRED) {
      const v = raptor[key];
      if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) messages.push(message);
    }
  }
  if (raptor.prompt !== undefined && raptor.prompt !== null && typeof raptor.prompt !== 'string') {
    messages.push('`raptor.prompt` must be a string.');
  }
  checkNumber(messages, raptor, { key: 'max_token', min: 1, max: 2048 }, 'raptor.');
  checkNumber(messages, raptor, { key: 'threshold', min: 0, max: 1, integer: false }, 'raptor.');
  checkNumber(messages, raptor, { key: 'max_cluster', min: 1, max: 1024 }, 'raptor.');
  checkNumber(messages, raptor, { key: 'random_seed', min: 0 }, 'raptor.');
}

function checkGraphrag(messages: string[], graphrag: unknown): void {
  if (graphrag === undefined || graphrag === null) return;
  if (!isPlainObject(graphrag)) {
    messages.push('`graphrag` must be an object.');
    return;
  }
  const method = graphrag.method;
  if (method !== undefined && method !== 'light' && method !== 'general') {
    messages.push('`graphrag.method` must be "light" or "general".');
  }
  const types = graphrag.entity_types;
  if (types !== undefined && (!Array.isArray(types) || types.some((x) => typeof x !== 'string'))) {
    messages.push('`graphrag.entity_types` must be a list of strings.');
  }
  for (const key of ['resolution', 'community', 'use_graphrag'] as const) {
    if (graphrag[key] !== undefined && typeof graphrag[key] !== 'boolean') {
      messages.push(`\`graphrag.${key}\` must be a boolean.`);
    }
  }
}
