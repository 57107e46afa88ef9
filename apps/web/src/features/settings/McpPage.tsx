import { useState } from 'react';
import { Button, Empty, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  PlusOutlined,
  ToolOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import { useTranslation } from 'react-i18next';
import type { McpServer } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import { alreadyShown, type ApiResult } from '../../api/request';
import { exportMcpServers, useMcpServers, useRemoveMcpServers } from '../../api/mcp';
import { SectionHeading } from '../../components/SectionHeading';
import { downloadJson } from './mcp/json-field';
import { McpImportDialog } from './mcp/McpImportDialog';
import { McpServerDialog } from './mcp/McpServerDialog';
import { McpToolsDrawer } from './mcp/McpToolsDrawer';

dayjs.extend(localizedFormat);

const toolCount = (s: McpServer) => {
  const tools = s.variables.tools;
  return tools && typeof tools === 'object' ? Object.keys(tools).length : 0;
};

/** MCP servers (API.md §16): add, edit, import, export, test and remove them, and browse their tools. */
export default function McpPage() {
  const { t } = useTranslation();
  const servers = useMcpServers();
  const remove = useRemoveMcpServers();
  const [editing, setEditing] = useState<McpServer | 'new' | null>(null);
  const [browsing, setBrowsing] = useState<McpServer | null>(null);
  const [importing, setImporting] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const rows = servers.data?.mcp_servers ?? [];

  const report = (result: ApiResult<unknown>, success: string) => {
    if (result.code === 0) feedback.success(success);
    else if (!alreadyShown(result)) feedback.error(result.message);
  };

  const exportSome = async (ids: string[]) => {
    const r = await exportMcpServers(ids);
    if (r.code === 0) downloadJson('mcp-servers.json', r.data);
    else if (!alreadyShown(r)) feedback.error(r.message);
  };

  return (
    <>
      <SectionHeading title={t('settings.mcp')} description={t('settings.mcpDescription')} />
      <Space wrap style={{ marginBottom: 16 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('mcp.add')}
        </Button>
        <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
          {t('mcp.import')}
        </Button>
        <Button
          icon={<DownloadOutlined />}
          disabled={rows.length === 0}
          onClick={() => exportSome(selected.length > 0 ? selected : rows.map((r) => r.id))}
        >
          {selected.length > 0 ? t('mcp.exportSelected', { count: selected.length }) : t('mcp.exportAll')}
        </Button>
      </Space>
      <Table<McpServer>
        rowKey="id"
        loading={servers.isPending}
        dataSource={rows}
        pagination={false}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }}
        locale={{ emptyText: <Empty description={t('mcp.empty')} /> }}
        columns={[
          {
            title: t('mcp.name'),
            dataIndex: 'name',
            render: (name: string, row) => (
              <>
                <Typography.Text strong>{name}</Typography.Text>
                {row.description && (
                  <Typography.Paragraph type="secondary" ellipsis style={{ margin: 0 }}>
                    {row.description}
                  </Typography.Paragraph>
                )}
              </>
            ),
          },
          { title: t('mcp.type'), dataIndex: 'server_type', render: (type: string) => <Tag>{type}</Tag> },
          {
            title: t('mcp.url'),
            dataIndex: 'url',
            render: (url: string) => (
              <Typography.Text code ellipsis style={{ maxWidth: 240 }}>
                {url}
              </Typography.Text>
            ),
          },
          {
            title: t('mcp.tools'),
            key: 'tools',
            render: (_: unknown, row) => t('mcp.toolCount', { count: toolCount(row) }),
          },
          {
            title: t('mcp.updated'),
            dataIndex: 'update_time',
            render: (ms: number) => (
              <time dateTime={new Date(ms).toISOString()}>{dayjs(ms).format('LLL')}</time>
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_: unknown, row) => (
              <Space size={0}>
                <Button
                  type="text"
                  icon={<ToolOutlined />}
                  aria-label={t('mcp.browseTools', { name: row.name })}
                  title={t('mcp.tools')}
                  onClick={() => setBrowsing(row)}
                />
                <Button
                  type="text"
                  icon={<EditOutlined />}
                  aria-label={t('mcp.editServer', { name: row.name })}
                  title={t('mcp.editTitle')}
                  onClick={() => setEditing(row)}
                />
                <Popconfirm
                  title={t('mcp.deleteConfirm', { name: row.name })}
                  okText={t('common.delete')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={async () => {
                    report(await remove.mutateAsync([row.id]), t('message.deleted'));
                    setSelected((ids) => ids.filter((id) => id !== row.id));
                  }}
                >
                  <Button
                    danger
                    type="text"
                    icon={<DeleteOutlined />}
                    aria-label={t('mcp.deleteServer', { name: row.name })}
                  />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing && <McpServerDialog server={editing} onClose={() => setEditing(null)} />}
      {browsing && <McpToolsDrawer server={browsing} onClose={() => setBrowsing(null)} />}
      {importing && <McpImportDialog onClose={() => setImporting(false)} />}
    </>
  );
}
