/**
 * @lectern/agent-core — the agent DSL, its runtime and components (AGENTS.md). The host (server)
 * injects models, retrieval, tools, MCP and storage through the ports; the web editor uses
 * `@lectern/agent-core/editor` (DSL, validation, catalogue) without the runtime.
 */
export * from './editor.js';
export * from './ports.js';
export { runCanvas, type CanvasRun, type RunCanvasOptions } from './runtime/run-canvas.js';
export {
  isPaused,
  DEFAULT_LIMITS,
  type RunLimits,
  type RunOutcome,
  type RunRequest,
  type RunStatus,
} from './runtime/engine.js';
export { debugComponent, type DebugRequest } from './runtime/debug.js';
export { isErrorEvent } from './runtime/events.js';
export type * from './runtime/events.js';
export type { TraceEntry } from './runtime/state.js';
export { BUILTIN_PROMPTS } from './model/prompts.js';
export { CORE_COMPONENTS } from './components/registry.js';
export { pyJson } from './util/pyjson.js';
export { loadTemplates, TEMPLATE_FILES } from './templates.js';
