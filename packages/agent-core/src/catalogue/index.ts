/**
 * The component catalogue: every component the DSL may name, with its palette group, editor node
 * type, params (zod, with defaults), initial editor form and outputs. Shared by validation, the
 * runtime and the web editor.
 */
import { DATA_ENTRIES } from './core-data.js';
import { FLOW_ENTRIES } from './core-flow.js';
import { MODEL_ENTRIES } from './core-model.js';
import { declaredOutputNames } from './define.js';
import { TOOL_ENTRIES } from './tools.js';
import { PALETTE_GROUPS, type CatalogueEntry, type PaletteGroup } from './types.js';

export const CATALOGUE: readonly CatalogueEntry[] = [
  ...FLOW_ENTRIES,
  ...MODEL_ENTRIES,
  ...DATA_ENTRIES,
  ...TOOL_ENTRIES,
];

const byName = new Map(CATALOGUE.map((e) => [e.name, e]));

export function catalogueEntry(componentName: string): CatalogueEntry | undefined {
  return byName.get(componentName);
}

/** The add-node menu of the editor: groups in order, operators in the v0.24 order (AGENTS.md §9.2). */
const PALETTE_ORDER: Record<PaletteGroup, string[]> = {
  foundation: ['Agent', 'Retrieval'],
  dialog: ['Message', 'UserFillUp'],
  flow: ['Switch', 'Iteration', 'Loop', 'ExitLoop', 'Categorize'],
  dataManipulation: [
    'CodeExec',
    'StringTransform',
    'DataOperations',
    'VariableAssigner',
    'ListOperations',
    'VariableAggregator',
  ],
  tools: [
    'TavilySearch',
    'TavilyExtract',
    'ExeSQL',
    'Google',
    'YahooFinance',
    'Email',
    'DuckDuckGo',
    'Wikipedia',
    'GoogleScholar',
    'ArXiv',
    'PubMed',
    'GitHub',
    'Invoke',
    'WenCai',
    'SearXNG',
    'PDFGenerator',
  ],
};

export interface PaletteSection {
  group: PaletteGroup;
  i18nKey: string;
  label: string;
  entries: CatalogueEntry[];
  /** operators offered only when adding inside a Loop */
  onlyInsideLoop: string[];
}

export function palette(): PaletteSection[] {
  return PALETTE_GROUPS.map((g) => ({
    ...g,
    entries: PALETTE_ORDER[g.group].map((n) => byName.get(n)).filter((e): e is CatalogueEntry => Boolean(e)),
    onlyInsideLoop: g.group === 'flow' ? ['ExitLoop'] : [],
  }));
}

/** Parse a component's params with its catalogue defaults (throws a zod error on bad values). */
export function parseParams(componentName: string, params: Record<string, unknown>): Record<string, unknown> {
  const entry = byName.get(componentName);
  if (!entry) throw new Error(`Unknown component: ${componentName}`);
  return entry.params.parse(params);
}

/** Names of the outputs a component instance has; 'open' when any name may appear at run time. */
export function outputNamesOf(componentName: string, params: Record<string, unknown>): string[] | 'open' {
  const entry = byName.get(componentName);
  if (!entry) return 'open';
  const dynamic = entry.dynamicOutputs?.(params) ?? [];
  if (dynamic === 'open') return 'open';
  return [...new Set([...Object.keys(entry.outputs), ...declaredOutputNames(params), ...dynamic])];
}

export { PALETTE_GROUPS };
export type { CatalogueEntry, PaletteGroup };
