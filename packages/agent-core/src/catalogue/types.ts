import type { z } from 'zod';

/** Palette groups of the v0.24 editor's add-node menu, in order (AGENTS.md §9.2). */
export type PaletteGroup = 'foundation' | 'dialog' | 'flow' | 'dataManipulation' | 'tools';

export const PALETTE_GROUPS: { group: PaletteGroup; i18nKey: string; label: string }[] = [
  { group: 'foundation', i18nKey: 'flow.foundation', label: 'Foundation' },
  { group: 'dialog', i18nKey: 'flow.dialog', label: 'Dialogue' },
  { group: 'flow', i18nKey: 'flow.flow', label: 'Flow' },
  { group: 'dataManipulation', i18nKey: 'flow.dataManipulation', label: 'Data manipulation' },
  { group: 'tools', i18nKey: 'flow.tools', label: 'Tools' },
];

export interface OutputDecl {
  type: string;
  value?: unknown;
}

export interface CatalogueEntry {
  /** `component_name` in the DSL (= the editor's Operator value) */
  name: string;
  /** palette group, or null when the editor's menu does not offer it */
  group: PaletteGroup | null;
  /** React Flow node type the editor uses (AGENTS.md §9.1) */
  nodeType: string;
  /** params with backend defaults; loose (unknown keys are kept) */
  params: z.ZodType<Record<string, unknown>>;
  /** the editor's initial form for a new node (§9.3) */
  editorInitial: Record<string, unknown>;
  /** outputs every instance has */
  outputs: Record<string, OutputDecl>;
  /**
   * Output names an instance has given its params, beyond `outputs` and the keys of `params.outputs`
   * (Begin/UserFillUp inputs, VariableAggregator groups, Loop variables); 'open' when they are only
   * known at run time (host tools without declared outputs).
   */
  dynamicOutputs?: (params: Record<string, unknown>) => string[] | 'open';
  /** load-time checks of the component's params (RAGFlow `check()`); reasons without the name */
  check?: (params: Record<string, unknown>) => string[];
  /** 'core' = implemented in this package; 'host' = a tool component the host registers (ToolPort) */
  implementedBy: 'core' | 'host';
  /** false for editor-only nodes (Note) */
  executable: boolean;
  /** whether single-step debug is offered (§9.4) */
  debuggable: boolean;
  /** time limit of one run, seconds (§3.10: 600, Agent 1200) */
  timeoutSeconds: number;
  /** where the exception default value goes (§3.9) */
  primaryOutput: string;
  /**
   * params scanned for `{cpn@var}` references by the skip rule (§3.4): a component referring to one
   * that has not run in this turn does not run. A whole-string bare reference counts too.
   */
  inputElementParams: string[];
  /** an older component name kept for DSLs written before the v0.24 redesign */
  legacy?: boolean;
}
