/** Public surface of the model layer: other modules import from here. */
export type * from './ports.js';
export { ModelError, ModelTimeoutError } from './errors.js';
export {
  resolveModel,
  modelFor,
  recordUsage,
  embeddingAvailable,
  defaultModelId,
  DEFAULT_MODEL_COLUMN,
  buildModel,
} from './registry.js';
export { seedCatalogue } from './seed.js';
export { catalogueFactories, catalogueFactory } from './catalogue.js';
export type { ModelSpec } from './spec.js';

import type { Config } from '../config.js';

/** System default model ids for a new tenant (config DEFAULT_*_ID), in the tenant table's columns. */
export function defaultTenantModels(config: Config) {
  return { ...config.defaultModels };
}
