/**
 * What the web editor needs, free of the runtime: DSL schema and types, loading and validation,
 * the component catalogue (palette groups, node types, params with defaults, outputs) and reference
 * helpers for the variable picker.
 */
export { dslSchema, templateSchema } from './dsl/schema.js';
export type {
  CanvasTemplate,
  ComponentEntry,
  Dsl,
  Graph,
  GraphEdge,
  GraphNode,
  VariableDef,
} from './dsl/schema.js';
export {
  loadDsl,
  loadDslReport,
  SYS_GLOBALS,
  emptySysGlobals,
  defaultOfType,
  type LoadedDsl,
} from './dsl/load.js';
export { validateDsl, assertValidDsl, parseComponentParams, type ValidateOptions } from './dsl/validate.js';
export { DslError, formatIssue, type DslIssue } from './dsl/errors.js';
export { displayNameOf, successorsOf, branchTargets, childrenOf } from './dsl/graph.js';
export { resetDsl } from './dsl/reset.js';
export { inputElements, inputForm, type InputElement } from './dsl/input-elements.js';
export { canonicalName, mapLegacyComponents } from './dsl/legacy.js';
export {
  CATALOGUE,
  catalogueEntry,
  palette,
  parseParams,
  outputNamesOf,
  PALETTE_GROUPS,
} from './catalogue/index.js';
export type { CatalogueEntry, OutputDecl, PaletteGroup } from './catalogue/types.js';
export type { PaletteSection } from './catalogue/index.js';
export { findRefs, parseRef, splitRefs, cleanRef, SCAN_PATTERN, REPLACE_PATTERN } from './variables/refs.js';
