/**
 * The host's tool components (AGENTS.md §10: Invoke, ExeSQL, Email, CodeExec, the search tools…):
 * agent-core's `ToolPort`, filled by the composition root. Each registered component works as a
 * canvas node and as an Agent tool. Empty until the tool components are registered.
 *
 * Extension point: `createRoot` passes them to `createAgentServices(ctx, { tools: [...] })`, or
 * code holding the services calls `agents.tools.registerTools([...])`.
 */
import type { ToolComponent, ToolPort } from '@lectern/agent-core';

export class ToolRegistry implements ToolPort {
  private readonly byName = new Map<string, ToolComponent>();

  constructor(tools: readonly ToolComponent[] = []) {
    this.registerTools(tools);
  }

  /** Adds tool components; a later registration of the same `componentName` replaces the earlier. */
  registerTools(tools: readonly ToolComponent[]): void {
    for (const t of tools) this.byName.set(t.componentName, t);
  }

  get(componentName: string): ToolComponent | undefined {
    return this.byName.get(componentName);
  }

  /** Names of the registered components. */
  names(): string[] {
    return [...this.byName.keys()];
  }
}
