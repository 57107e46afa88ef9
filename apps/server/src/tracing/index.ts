/** The tracing port (API.md §14): types, the Langfuse implementation, traced model ports, stored keys. */
export * from './types.js';
export { createLangfuseTracing, type LangfuseTracingOptions } from './langfuse.js';
export { checkKeys, type KeyCheck } from './langfuse-api.js';
export {
  hasTracingKeys,
  loadTracingKeys,
  normalizeHost,
  removeTracingKeys,
  saveTracingKeys,
  type TracingKeys,
} from './keys.js';
export { tracedChatModel, tracedEmbeddingModel, tracedRerankModel } from './models.js';
