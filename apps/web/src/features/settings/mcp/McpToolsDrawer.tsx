import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Collapse, Drawer, Empty, Input, Space, Spin, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { McpServer, McpTool } from '@lectern/shared';
import { feedback } from '../../../api/feedback';
import { alreadyShown } from '../../../api/request';
import { listMcpTools, testMcpTool, useCacheMcpTools } from '../../../api/mcp';
import { parseObject } from './json-field';

/** One tool: its description, input schema, a switch, and a form to call it with JSON arguments. */
function ToolPanel({ server, tool }: { server: McpServer; tool: McpTool }) {
  const { t } = useTranslation();
  const [args, setArgs] = useState('{}');
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const run = async () => {
    const parsed = parseObject(args);
    if (!parsed) return setResult({ ok: false, text: t('mcp.invalidJson') });
    setRunning(true);
    const r = await testMcpTool({ mcp_id: server.id, tool_name: tool.name, arguments: parsed });
    setRunning(false);
    setResult(r.code === 0 ? { ok: true, text: r.data ?? '' } : { ok: false, text: r.message });
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {tool.description && <Typography.Paragraph>{tool.description}</Typography.Paragraph>}
      <Typography.Text type="secondary">{t('mcp.inputSchema')}</Typography.Text>
      <pre style={{ maxHeight: 160, overflow: 'auto', fontSize: 12, margin: 0 }}>
        {JSON.stringify(tool.inputSchema, null, 2)}
      </pre>
      <Input.TextArea
        aria-label={t('mcp.arguments')}
        placeholder={t('mcp.arguments')}
        value={args}
        onChange={(e) => setArgs(e.target.value)}
        autoSize={{ minRows: 2, maxRows: 6 }}
      />
      <Button onClick={run} loading={running}>
        {t('mcp.run')}
      </Button>
      {result && (
        <Alert
          role="status"
          type={result.ok ? 'success' : 'error'}
          title={t('mcp.result')}
          description={<pre style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{result.text}</pre>}
        />
      )}
    </Space>
  );
}

/** Browse a server's live tool list, switch tools on or off (cache_tools) and try them (test_tool). */
export function McpToolsDrawer({ server, onClose }: { server: McpServer; onClose: () => void }) {
  const { t } = useTranslation();
  const cache = useCacheMcpTools();
  const [tools, setTools] = useState<McpTool[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    setTools(null);
    setError(null);
    const r = await listMcpTools([server.id]);
    if (r.code === 0) setTools(r.data?.[server.id] ?? []);
    else setError(r.message);
  }, [server.id]);
  useEffect(() => void load(), [load]);

  const save = async () => {
    const r = await cache.mutateAsync({ mcp_id: server.id, tools: tools ?? [] });
    if (r.code === 0) feedback.success(t('mcp.toolsSaved'));
    else if (!alreadyShown(r)) feedback.error(r.message);
  };
  const toggle = (name: string, enabled: boolean) =>
    setTools((list) => (list ?? []).map((tool) => (tool.name === name ? { ...tool, enabled } : tool)));

  return (
    <Drawer
      open
      width={560}
      title={t('mcp.toolsTitle', { name: server.name })}
      onClose={onClose}
      extra={
        <Space>
          <Button onClick={() => void load()}>{t('mcp.refresh')}</Button>
          <Button type="primary" disabled={!tools} loading={cache.isPending} onClick={save}>
            {t('mcp.saveTools')}
          </Button>
        </Space>
      }
    >
      {error && <Alert type="error" showIcon title={error} />}
      {!tools && !error && <Spin />}
      {tools && tools.length === 0 && <Empty description={t('mcp.noTools')} />}
      {tools && tools.length > 0 && (
        <Collapse
          items={tools.map((tool) => ({
            key: tool.name,
            label: tool.title ? `${tool.name} — ${tool.title}` : tool.name,
            extra: (
              <span onClick={(e) => e.stopPropagation()}>
                <Switch
                  size="small"
                  checked={tool.enabled}
                  aria-label={t('mcp.enableTool', { name: tool.name })}
                  onChange={(on) => toggle(tool.name, on)}
                />
              </span>
            ),
            children: <ToolPanel server={server} tool={tool} />,
          }))}
        />
      )}
    </Drawer>
  );
}
