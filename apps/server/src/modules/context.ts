import type { AppContext } from '../context.js';
import type { AgentServices } from '../agents/services.js';
import type { ChatServices } from '../chat/services.js';

/**
 * What route modules receive: the ports of `AppContext` plus the domain services built on them by
 * the composition root (root.ts). Each is built once per process.
 */
export interface ServerContext extends AppContext {
  chat: ChatServices;
  /** Agent runs: tool components, MCP client, the runs live in this process. */
  agents: AgentServices;
}
