/** `/v1/langfuse` — LLM-tracing keys (API.md §14). */
import { z } from 'zod';
import { done } from './common.js';
import { route } from './route.js';

/**
 * The stored keys of the caller's tenant. `secret_key` is shown masked (first and last characters);
 * sending the masked value back on `api_key` keeps the stored secret.
 */
export const tracingKeysSchema = z.strictObject({
  tenant_id: z.string(),
  secret_key: z.string(),
  public_key: z.string(),
  host: z.string(),
});
export type TracingKeysInfo = z.infer<typeof tracingKeysSchema>;

/** `GET`: the keys with the project the tracing host says they belong to. */
export const tracingKeysDetailSchema = tracingKeysSchema.extend({
  project_id: z.string(),
  project_name: z.string(),
});
export type TracingKeysDetail = z.infer<typeof tracingKeysDetailSchema>;

const setBody = z.object({
  secret_key: z.string().nullable(),
  public_key: z.string().nullable(),
  host: z.string().nullable(),
});

export const langfuseContract = {
  /** Checks the keys against the host first (102 "Invalid tracing keys"; 105 when it cannot be reached). */
  setApiKey: route({
    method: 'POST',
    path: '/v1/langfuse/api_key',
    auth: 'login',
    body: setBody,
    data: tracingKeysSchema,
  }),
  putApiKey: route({
    method: 'PUT',
    path: '/v1/langfuse/api_key',
    auth: 'login',
    body: setBody,
    data: tracingKeysSchema,
  }),
  /** No keys: code 0, message "Have not record any tracing keys.", no `data`. */
  getApiKey: route({
    method: 'GET',
    path: '/v1/langfuse/api_key',
    auth: 'login',
    data: tracingKeysDetailSchema.optional(),
  }),
  /** No keys: code 0, message "Have not record any tracing keys.", no `data`. */
  deleteApiKey: route({
    method: 'DELETE',
    path: '/v1/langfuse/api_key',
    auth: 'login',
    data: done.optional(),
  }),
};
