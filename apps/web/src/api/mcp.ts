import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type BodyInput } from '@lectern/shared';
import { unwrap } from './request';
import { callRoute } from './route-call';

/** Hooks of the MCP server area (API.md §16). Live calls (tools, tests) are plain mutations. */

const c = contract.mcp;

export const mcpKeys = {
  all: ['mcp'] as const,
  list: ['mcp', 'list'] as const,
};

export type McpCreateBody = BodyInput<typeof c.create>;
export type McpUpdateBody = BodyInput<typeof c.update>;

export function useMcpServers() {
  return useQuery({
    queryKey: mcpKeys.list,
    queryFn: async () => unwrap(await callRoute(c.list, { body: {} })),
  });
}

function useInvalidating<A, R extends { code: number }>(fn: (arg: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: mcpKeys.all });
    },
  });
}

export const useCreateMcpServer = () =>
  useInvalidating((body: McpCreateBody) => callRoute(c.create, { body }));
export const useUpdateMcpServer = () =>
  useInvalidating((body: McpUpdateBody) => callRoute(c.update, { body }));
export const useRemoveMcpServers = () =>
  useInvalidating((ids: string[]) => callRoute(c.rm, { body: { mcp_ids: ids } }));
export const useImportMcpServers = () =>
  useInvalidating((servers: Record<string, Record<string, unknown>>) =>
    callRoute(c.import, { body: { mcpServers: servers } }),
  );
export const useCacheMcpTools = () =>
  useInvalidating((body: BodyInput<typeof c.cacheTools>) => callRoute(c.cacheTools, { body }));

export const exportMcpServers = (ids: string[]) => callRoute(c.export, { body: { mcp_ids: ids } });
export const listMcpTools = (ids: string[]) => callRoute(c.listTools, { body: { mcp_ids: ids } });
export const testMcpTool = (body: BodyInput<typeof c.testTool>) => callRoute(c.testTool, { body });
export const testMcpServer = (body: BodyInput<typeof c.testMcp>) => callRoute(c.testMcp, { body });
