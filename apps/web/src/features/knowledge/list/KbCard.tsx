import { Avatar, Button, Card, Dropdown, Modal, Space, Tag, Tooltip, Typography, theme } from 'antd';
import {
  DatabaseOutlined,
  DeleteOutlined,
  FileTextOutlined,
  LockOutlined,
  MoreOutlined,
  PartitionOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { KbListItem } from '@lectern/shared';
import { feedback } from '../../../api/feedback';
import { fetchKbUsage, useRemoveKb } from '../../../api/kb';
import { alreadyShown } from '../../../api/request';

dayjs.extend(localizedFormat);

/** One knowledge base of the list: picture, name, description, counts, update time, permission, owner. */
export function KbCard({ kb, canDelete }: { kb: KbListItem; canDelete: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const remove = useRemoveKb();
  const [modal, holder] = Modal.useModal();

  // Assistants that use the KB lose it: they are named before the question is asked.
  const confirmDelete = async () => {
    const usage = await fetchKbUsage(kb.id);
    const users = usage.code === 0 && usage.data ? usage.data : { dialogs: [], total: 0 };
    const teammates = users.total - users.dialogs.length;
    const names = users.dialogs.map((d) => `“${d.name}”`).join(', ');
    void modal.confirm({
      title: t('knowledge.deleteKbTitle'),
      content: (
        <>
          <p>{t('knowledge.deleteKbConfirm', { name: kb.name })}</p>
          {users.total > 0 && (
            <p role="alert">
              {t('knowledge.kbUsedBy', { count: users.total })}
              {names && ` ${names}`}
              {teammates > 0 && ` ${t('knowledge.kbUsedByTeammates', { count: teammates })}`}
              {` ${t('knowledge.kbUsedByAfter')}`}
            </p>
          )}
        </>
      ),
      okText: t('common.delete'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        const result = await remove.mutateAsync(kb.id);
        if (result.code === 0) feedback.success(t('message.deleted'));
        else if (!alreadyShown(result)) feedback.error(result.message);
      },
    });
  };

  return (
    <Card
      hoverable
      style={{ height: '100%' }}
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: 12, height: '100%' } }}
    >
      {holder}
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 12 }}>
        <Avatar shape="square" size={48} src={kb.avatar || undefined} icon={<DatabaseOutlined />} alt="" />
        <div style={{ flex: 1, minWidth: 0 }}>
          <Link to={`/knowledge/${kb.id}/dataset`} style={{ color: token.colorText }}>
            <Typography.Title level={3} style={{ fontSize: 16, margin: 0 }} ellipsis={{ tooltip: kb.name }}>
              {kb.name}
            </Typography.Title>
          </Link>
          <Space size={4} style={{ marginTop: 4 }}>
            <Tag icon={kb.permission === 'team' ? <TeamOutlined /> : <LockOutlined />}>
              {t(kb.permission === 'team' ? 'knowledge.permissionTeam' : 'knowledge.permissionMe')}
            </Tag>
          </Space>
        </div>
        {canDelete && (
          <Dropdown
            trigger={['click']}
            menu={{
              items: [{ key: 'delete', icon: <DeleteOutlined />, label: t('common.delete'), danger: true }],
              onClick: ({ key }) => key === 'delete' && void confirmDelete(),
            }}
          >
            <Button
              type="text"
              icon={<MoreOutlined />}
              aria-label={t('knowledge.kbMenu', { name: kb.name })}
            />
          </Dropdown>
        )}
      </div>
      <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0, minHeight: 44 }}>
        {kb.description || t('knowledge.noDescription')}
      </Typography.Paragraph>
      <Space size="middle" wrap style={{ color: token.colorTextSecondary, fontSize: 13 }}>
        <Tooltip title={t('knowledge.docCount')}>
          <span>
            <FileTextOutlined aria-hidden /> {t('knowledge.docs', { count: kb.doc_num })}
          </span>
        </Tooltip>
        <Tooltip title={t('knowledge.chunkCount')}>
          <span>
            <PartitionOutlined aria-hidden /> {t('knowledge.chunks', { count: kb.chunk_num })}
          </span>
        </Tooltip>
      </Space>
      <div
        style={{
          marginTop: 'auto',
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          gap: 8,
          color: token.colorTextSecondary,
          fontSize: 12,
        }}
      >
        <Space size={6}>
          <Avatar size={20} src={kb.tenant_avatar || undefined} icon={<UserOutlined />} alt="" />
          <span>{kb.nickname ?? ''}</span>
        </Space>
        <time dateTime={new Date(kb.update_time).toISOString()}>
          {t('knowledge.updatedAt', { time: dayjs(kb.update_time).format('LLL') })}
        </time>
      </div>
    </Card>
  );
}
