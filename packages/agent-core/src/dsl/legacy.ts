/**
 * Older component names (SPEC §3, AGENTS.md §8) mapped to their current equivalents when a DSL is
 * loaded. Before RAGFlow's agent redesign components passed their output implicitly to the next
 * one and a conversation turn ended at an `Answer` node; here that becomes explicit references and
 * a Message at the end of the turn (every run now starts at `begin`).
 *
 * Mapping: Answer/Interact → turn boundary (removed after begin; a Message showing the producer
 * before it); Generate → LLM; Relevant → Categorize with "relevant"/"irrelevant" categories;
 * Note → dropped (editor only); RewriteQuestion, KeywordExtract, Concentrator and Template stay as
 * components of their own. Old param shapes (Message `messages`, Switch `end_cpn_id`, Categorize
 * example strings, Begin `query` list, string `to`) are converted too.
 */
import { isPlainObject } from '../util/pyjson.js';
import { catalogueEntry } from '../catalogue/index.js';

interface RawComponent {
  obj: { component_name: string; params: Record<string, unknown> };
  downstream: string[];
  upstream: string[];
  parent_id?: string | null;
  [k: string]: unknown;
}

const ALIASES: Record<string, string> = {
  answer: 'Answer',
  interact: 'Answer',
  generate: 'Generate',
  relevant: 'Relevant',
  rewrite: 'RewriteQuestion',
  rewritequestion: 'RewriteQuestion',
  keywordextract: 'KeywordExtract',
  concentrator: 'Concentrator',
  template: 'Template',
  note: 'Note',
};

const LEGACY_ONLY = new Set(['Answer', 'Generate', 'Relevant', 'Note']);

/** Canonical component name for a stored one (case, spaces and underscores ignored). */
export function canonicalName(stored: string): string {
  const key = stored.toLowerCase().replace(/[\s_-]+/g, '');
  if (ALIASES[key]) return ALIASES[key];
  const current = [
    'Begin',
    'Message',
    'Switch',
    'Categorize',
    'Retrieval',
    'Iteration',
    'IterationItem',
    'Invoke',
    'Email',
    'Crawler',
    'ExeSQL',
  ];
  return current.find((n) => n.toLowerCase() === key) ?? stored;
}

/** The output a later component read implicitly from this one before the redesign. */
function mainOutputRef(comps: Record<string, RawComponent>, id: string): string {
  const c = comps[id];
  const name = c ? canonicalName(c.obj.component_name) : '';
  if (!c || name === 'Begin' || name === 'Answer') return 'sys.query';
  if (name === 'Generate') return `${id}@content`;
  const entry = catalogueEntry(name);
  return `${id}@${entry?.primaryOutput ?? 'content'}`;
}

const ROUTERS = new Set(['Categorize', 'Switch', 'Relevant', 'Concentrator']);

/**
 * The producers whose output a component read implicitly: its upstream components, looking through
 * routers (Categorize, Switch, Relevant, Concentrator pass the input on), ignoring Begin/Answer.
 */
function producersOf(comps: Record<string, RawComponent>, id: string, seen = new Set<string>()): string[] {
  const out: string[] = [];
  for (const u of Object.keys(comps).filter((x) => comps[x].downstream.includes(id))) {
    if (seen.has(u)) continue;
    seen.add(u);
    const name = canonicalName(comps[u].obj.component_name);
    if (name === 'Begin' || name === 'Answer') continue;
    if (ROUTERS.has(name)) out.push(...producersOf(comps, u, seen));
    else out.push(u);
  }
  return [...new Set(out)];
}

function implicitInput(comps: Record<string, RawComponent>, id: string): string {
  const producers = producersOf(comps, id);
  return producers.length ? mainOutputRef(comps, producers[0]) : 'sys.query';
}

/** The reference a legacy `{key}` parameter stood for. */
function paramRef(comps: Record<string, RawComponent>, componentId: string): string {
  if (componentId.includes('@')) return componentId;
  return mainOutputRef(comps, componentId);
}

function braced(ref: string): string {
  return `{${ref}}`;
}

function mapGenerate(comps: Record<string, RawComponent>, id: string) {
  const p = comps[id].obj.params;
  let prompt = typeof p.prompt === 'string' ? p.prompt : '';
  const producers = producersOf(comps, id);
  const input = producers.length
    ? producers.map((u) => braced(mainOutputRef(comps, u))).join('\n')
    : '{sys.query}';
  prompt = prompt.replace(/\{input\}/g, input);
  const params = Array.isArray(p.parameters) ? (p.parameters as Record<string, unknown>[]) : [];
  for (const par of params) {
    const key = String(par.key ?? '');
    const cid = String(par.component_id ?? '');
    if (key && cid) prompt = prompt.split(`{${key}}`).join(braced(paramRef(comps, cid)));
  }
  const { prompt: _p, parameters: _params, ...rest } = p;
  comps[id].obj = {
    component_name: 'LLM',
    params: { ...rest, sys_prompt: prompt, prompts: [{ role: 'user', content: '{sys.query}' }] },
  };
}

function mapRelevant(comps: Record<string, RawComponent>, id: string) {
  const p = comps[id].obj.params;
  const source = implicitInput(comps, id);
  const yes = typeof p.yes === 'string' && p.yes ? [p.yes] : [];
  const no = typeof p.no === 'string' && p.no ? [p.no] : [];
  const { yes: _y, no: _n, ...rest } = p;
  comps[id].obj = {
    component_name: 'Categorize',
    params: {
      ...rest,
      query: source,
      message_history_window_size: 1,
      category_description: {
        relevant: {
          description: 'The text is relevant to the user question "{sys.query}" and helps answer it.',
          examples: [],
          to: yes,
        },
        irrelevant: {
          description: 'The text is not relevant to the user question "{sys.query}".',
          examples: [],
          to: no,
        },
      },
    },
  };
}

function fixParams(comps: Record<string, RawComponent>, id: string) {
  const c = comps[id];
  const p = c.obj.params;
  const name = c.obj.component_name;
  if (name === 'Message' && p.content === undefined && Array.isArray(p.messages)) {
    p.content = p.messages;
    delete p.messages;
  }
  if (name === 'Begin' && p.inputs === undefined && Array.isArray(p.query)) {
    p.inputs = Object.fromEntries(
      (p.query as Record<string, unknown>[]).map(({ key, ...rest }) => [String(key), rest]),
    );
    delete p.query;
  }
  if (name === 'Switch') {
    if (p.end_cpn_ids === undefined && typeof p.end_cpn_id === 'string') {
      p.end_cpn_ids = p.end_cpn_id ? [p.end_cpn_id] : [];
      delete p.end_cpn_id;
    }
    if (Array.isArray(p.conditions)) {
      for (const cond of p.conditions as Record<string, unknown>[]) {
        if (typeof cond.to === 'string') cond.to = cond.to ? [cond.to] : [];
        for (const item of (cond.items as Record<string, unknown>[] | undefined) ?? []) {
          const ref = item.cpn_id;
          if (typeof ref === 'string' && ref && !ref.includes('@') && comps[ref])
            item.cpn_id = mainOutputRef(comps, ref);
        }
      }
    }
  }
  if (name === 'Categorize' && isPlainObject(p.category_description)) {
    for (const cat of Object.values(p.category_description)) {
      if (!isPlainObject(cat)) continue;
      if (typeof cat.to === 'string') cat.to = cat.to ? [cat.to] : [];
      if (typeof cat.examples === 'string') cat.examples = cat.examples.split('\n').filter((x) => x.trim());
    }
    if (p.query === undefined || Array.isArray(p.query)) p.query = implicitInput(comps, id);
  }
  if (
    (name === 'Retrieval' || name === 'KeywordExtract') &&
    (p.query === undefined || Array.isArray(p.query))
  ) {
    const src = implicitInput(comps, id);
    p.query = name === 'Retrieval' ? braced(src) : src;
  }
}

/** Answer nodes: the turn now starts at begin and ends with a Message showing what the Answer showed. */
function mapAnswers(comps: Record<string, RawComponent>, mapped: string[]) {
  const answers = Object.keys(comps).filter((id) => canonicalName(comps[id].obj.component_name) === 'Answer');
  for (const a of answers) {
    const outs = comps[a].downstream.filter((d) => d !== a);
    for (const [uid, u] of Object.entries(comps)) {
      if (uid === a || !u.downstream.includes(a)) continue;
      const uname = canonicalName(u.obj.component_name);
      let replacement: string[] = [];
      if (uname === 'Begin') replacement = outs;
      else if (uname !== 'Message' && uname !== 'Answer') {
        const mid = `Message:${(a + uid).replace(/[^A-Za-z0-9]/g, '')}`;
        comps[mid] = {
          obj: { component_name: 'Message', params: { content: [braced(mainOutputRef(comps, uid))] } },
          downstream: [],
          upstream: [uid],
        };
        replacement = [mid];
      }
      u.downstream = [...new Set(u.downstream.flatMap((d) => (d === a ? replacement : [d])))];
      retarget(u.obj.params, a, replacement);
    }
    delete comps[a];
    mapped.push(`${a}: Answer → turn boundary`);
  }
}

/** Replace a removed id inside branch target lists (Categorize `to`, Switch `to`/`end_cpn_ids`). */
function retarget(params: Record<string, unknown>, from: string, to: string[]) {
  const swap = (v: unknown) =>
    Array.isArray(v) ? v.flatMap((x) => (x === from ? to : [x])) : v === from ? to : v;
  if (isPlainObject(params.category_description))
    for (const c of Object.values(params.category_description)) if (isPlainObject(c)) c.to = swap(c.to);
  if (Array.isArray(params.conditions))
    for (const c of params.conditions) if (isPlainObject(c)) c.to = swap(c.to);
  if (params.end_cpn_ids !== undefined) params.end_cpn_ids = swap(params.end_cpn_ids);
}

function dropNotes(comps: Record<string, RawComponent>, mapped: string[]) {
  for (const id of Object.keys(comps)) {
    if (canonicalName(comps[id].obj.component_name) !== 'Note') continue;
    delete comps[id];
    for (const c of Object.values(comps)) {
      c.downstream = c.downstream.filter((d) => d !== id);
      c.upstream = c.upstream.filter((d) => d !== id);
    }
    mapped.push(`${id}: Note → editor only`);
  }
}

/**
 * Rewrite legacy components of a raw DSL in place. Returns what was mapped (empty for a DSL of the
 * current shape, which is left untouched).
 */
export function mapLegacyComponents(raw: Record<string, unknown>): string[] {
  const mapped: string[] = [];
  if (!isPlainObject(raw.components)) return mapped;
  const comps = raw.components as Record<string, RawComponent>;
  let legacy = false;
  for (const c of Object.values(comps)) {
    if (!isPlainObject(c) || !isPlainObject(c.obj) || typeof c.obj.component_name !== 'string') continue;
    c.obj.params = isPlainObject(c.obj.params) ? c.obj.params : {};
    c.downstream = Array.isArray(c.downstream) ? c.downstream : [];
    c.upstream = Array.isArray(c.upstream) ? c.upstream : [];
    const canon = canonicalName(c.obj.component_name);
    if (LEGACY_ONLY.has(canon) || (canon !== c.obj.component_name && !catalogueEntry(c.obj.component_name)))
      legacy = true;
    if (!LEGACY_ONLY.has(canon)) c.obj.component_name = canon;
  }
  if (!legacy) return mapped;
  for (const id of Object.keys(comps)) fixParams(comps, id);
  for (const id of Object.keys(comps)) {
    const canon = canonicalName(comps[id].obj.component_name);
    if (canon === 'Generate') {
      mapGenerate(comps, id);
      mapped.push(`${id}: Generate → LLM`);
    }
    if (canon === 'Relevant') {
      mapRelevant(comps, id);
      mapped.push(`${id}: Relevant → Categorize`);
    }
  }
  mapAnswers(comps, mapped);
  dropNotes(comps, mapped);
  for (const [id, c] of Object.entries(comps))
    c.upstream = Object.keys(comps).filter((u) => comps[u].downstream.includes(id));
  // Old paths (lists of lists of old ids) cannot be resumed in the new model.
  raw.path = [];
  return mapped;
}
