import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { McpServer } from '@lectern/shared';
import { useMcpServers } from '../../../api/mcp';
import type { FieldContext } from './fields';

type McpEntry = { mcp_id: string; tools: Record<string, unknown> };

/** The tools of a server the Agent gets: its cached tools that are switched on (settings → MCP servers). */
function enabledTools(server: McpServer): Record<string, unknown> {
  const tools = server.variables.tools;
  if (!tools || typeof tools !== 'object' || Array.isArray(tools)) return {};
  return Object.fromEntries(
    Object.entries(tools).filter(([, tool]) => (tool as { enabled?: unknown } | null)?.enabled !== false),
  );
}

/** The Agent's `mcp` param (AGENTS.md §6.2, §11.3): which of the team's MCP servers it may call. */
export function McpField({ ctx }: { ctx: FieldContext }) {
  const { t } = useTranslation();
  const servers = useMcpServers().data?.mcp_servers ?? [];
  const entries = (Array.isArray(ctx.form.mcp) ? ctx.form.mcp : []) as McpEntry[];
  return (
    <Form.Item label={t('agent.form.mcpServers')} style={{ marginBottom: 12 }}>
      <Select
        mode="multiple"
        aria-label={t('agent.form.mcpServers')}
        // typing a server's name finds it (the values are ids)
        optionFilterProp="label"
        value={entries.map((e) => e.mcp_id)}
        options={[
          ...servers.map((s) => ({ value: s.id, label: s.name })),
          // a server removed since: still listed, so it can be taken out
          ...entries
            .filter((e) => !servers.some((s) => s.id === e.mcp_id))
            .map((e) => ({ value: e.mcp_id, label: e.mcp_id })),
        ]}
        onChange={(ids: string[]) =>
          ctx.set(
            'mcp',
            ids.map((id) => {
              const kept = entries.find((e) => e.mcp_id === id);
              const server = servers.find((s) => s.id === id);
              return kept ?? { mcp_id: id, tools: server ? enabledTools(server) : {} };
            }),
          )
        }
      />
    </Form.Item>
  );
}
