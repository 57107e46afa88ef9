import { useState } from 'react';
import { App, Button, Drawer, Empty, List, Popconfirm, Space, Spin, Typography } from 'antd';
import { HistoryOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { useCanvasVersion, useCanvasVersions } from '../../../api/canvas';
import { GraphPreview } from './GraphPreview';

/**
 * Version history (API.md §13: newest 20 kept, one per save): the list, a preview of the chosen
 * version's graph, and restore, which puts that DSL on the canvas (and so saves it as the newest).
 */
export function VersionDrawer({
  canvasId,
  open,
  onClose,
  onRestore,
}: {
  canvasId: string;
  open: boolean;
  onClose: () => void;
  onRestore: (dsl: unknown) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const versions = useCanvasVersions(canvasId, open);
  const [chosen, setChosen] = useState<string | null>(null);
  const version = useCanvasVersion(chosen);
  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={480}
      title={t('agent.versions.title')}
      data-testid="version-drawer"
    >
      {versions.isPending ? (
        <Spin />
      ) : (versions.data ?? []).length === 0 ? (
        <Empty description={t('agent.versions.empty')} />
      ) : (
        <List
          size="small"
          dataSource={versions.data ?? []}
          renderItem={(v, i) => (
            <List.Item
              onClick={() => setChosen(v.id)}
              style={{
                cursor: 'pointer',
                background: chosen === v.id ? '#e6f4ff' : undefined,
                paddingInline: 8,
              }}
              data-testid="version-item"
            >
              <Space>
                <HistoryOutlined />
                <span>
                  <Typography.Text>{dayjs(v.update_time).format('YYYY-MM-DD HH:mm:ss')}</Typography.Text>{' '}
                  {i === 0 && (
                    <Typography.Text type="secondary">{t('agent.versions.latest')}</Typography.Text>
                  )}
                  <br />
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {v.title}
                  </Typography.Text>
                </span>
              </Space>
            </List.Item>
          )}
        />
      )}
      {chosen && (
        <div style={{ marginTop: 16 }}>
          {version.isPending || !version.data ? (
            <Spin />
          ) : (
            <>
              <GraphPreview
                dsl={version.data.dsl}
                height={200}
                label={t('agent.versions.preview', { title: version.data.title })}
              />
              <Popconfirm
                title={t('agent.versions.restoreConfirm')}
                onConfirm={() => {
                  onRestore(version.data.dsl);
                  void message.success(t('agent.versions.restored'));
                  onClose();
                }}
              >
                <Button type="primary" style={{ marginTop: 8 }} data-testid="version-restore">
                  {t('agent.versions.restore')}
                </Button>
              </Popconfirm>
            </>
          )}
        </div>
      )}
    </Drawer>
  );
}
