/**
 * The registry: every `/v1` route the server registers, by area. The route-contract test fails for
 * a registered route missing here and for an entry here the server does not register. To add a
 * route, see CONTRIBUTING.md "Adding a route".
 */
import { apiContract } from './api.js';
import { canvasContract } from './canvas.js';
import { canvasToolsContract } from './canvas-tools.js';
import { chunkContract } from './chunk.js';
import { conversationContract } from './conversation.js';
import { dialogContract } from './dialog.js';
import { documentContract } from './document.js';
import { graphContract } from './graph.js';
import { fileContract } from './file.js';
import { kbContract } from './kb.js';
import { langfuseContract } from './langfuse.js';
import { llmContract } from './llm.js';
import { mcpContract } from './mcp.js';
import { publicAgentsContract, publicBotsContract } from './public-agents.js';
import { publicApiContract } from './public-api.js';
import { publicFilesContract } from './public-files.js';
import { searchBotsContract, searchContract } from './search.js';
import type { RouteContract, RouteGroup } from './route.js';
import { systemContract } from './system.js';
import { tenantContract } from './tenant.js';
import { userContract } from './user.js';

export const contract = {
  user: userContract,
  system: systemContract,
  llm: llmContract,
  kb: kbContract,
  document: documentContract,
  chunk: chunkContract,
  graph: graphContract,
  dialog: dialogContract,
  conversation: conversationContract,
  api: apiContract,
  canvas: canvasContract,
  canvasTools: canvasToolsContract,
  file: fileContract,
  tenant: tenantContract,
  langfuse: langfuseContract,
  publicApi: publicApiContract,
  publicAgents: publicAgentsContract,
  publicBots: publicBotsContract,
  publicFiles: publicFilesContract,
  mcp: mcpContract,
  search: searchContract,
  searchBots: searchBotsContract,
} satisfies Record<string, RouteGroup>;

/** Every entry, for checks that walk them all. */
export const allRoutes: RouteContract[] = Object.values(contract).flatMap((group) =>
  Object.values(group as RouteGroup),
);

/** `"GET /v1/kb/detail"` → its entry. */
export function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}
export const routesByKey: ReadonlyMap<string, RouteContract> = new Map(
  allRoutes.map((r) => [routeKey(r.method, r.path), r]),
);

export * from './answer.js';
export * from './api.js';
export * from './canvas.js';
export * from './canvas-run.js';
export * from './canvas-tools.js';
export * from './chunk.js';
export * from './common.js';
export * from './conversation.js';
export * from './dialog.js';
export * from './document.js';
export * from './enums.js';
export * from './graph.js';
export * from './file.js';
export * from './kb.js';
export * from './langfuse.js';
export * from './paging.js';
export * from './llm.js';
export * from './mcp.js';
export * from './openapi.js';
export * from './public-agents.js';
export * from './public-api.js';
export * from './public-files.js';
export * from './route.js';
export * from './search.js';
export * from './system.js';
export * from './tasks.js';
export * from './tenant.js';
export * from './user.js';
