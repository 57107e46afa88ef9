import { Avatar, Button, Dropdown, Empty, Modal, Spin, Tag, Typography, theme } from 'antd';
import {
  ApiOutlined,
  CodeOutlined,
  DeleteOutlined,
  EditOutlined,
  MoreOutlined,
  PlusOutlined,
  RobotOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Dialog } from '@lectern/shared';
import { useRemoveDialogs } from '../../../api/dialog';
import { feedback } from '../../../api/feedback';
import { alreadyShown } from '../../../api/request';

export type AssistantAction = 'edit' | 'embed' | 'api';

function AssistantCard({
  dialog,
  active,
  onSelect,
  onAction,
  onDelete,
}: {
  dialog: Dialog;
  active: boolean;
  onSelect: () => void;
  onAction: (action: AssistantAction) => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <li
      aria-label={dialog.name}
      aria-current={active ? 'true' : undefined}
      style={{
        listStyle: 'none',
        display: 'flex',
        gap: 10,
        padding: 10,
        borderRadius: 10,
        cursor: 'pointer',
        border: `1px solid ${active ? token.colorPrimaryBorder : token.colorBorderSecondary}`,
        background: active ? token.colorPrimaryBg : token.colorBgContainer,
      }}
      onClick={onSelect}
    >
      <Avatar
        size={40}
        src={dialog.icon || undefined}
        icon={<RobotOutlined />}
        alt=""
        style={{ flex: 'none' }}
      />
      <div style={{ flex: 1, minWidth: 0 }}>
        <Button
          type="link"
          onClick={onSelect}
          style={{ padding: 0, height: 'auto', maxWidth: '100%', color: token.colorText }}
        >
          <Typography.Text strong ellipsis>
            {dialog.name}
          </Typography.Text>
        </Button>
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 1 }} style={{ margin: 0, fontSize: 12 }}>
          {dialog.description || t('chat.noDescription')}
        </Typography.Paragraph>
        <div style={{ marginTop: 4, display: 'flex', flexWrap: 'wrap', gap: 4 }}>
          {(dialog.kb_names ?? []).slice(0, 3).map((name) => (
            <Tag key={name} style={{ marginInlineEnd: 0, fontSize: 11 }}>
              {name}
            </Tag>
          ))}
        </div>
      </div>
      <div onClick={(e) => e.stopPropagation()}>
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'edit', icon: <EditOutlined />, label: t('chat.edit') },
              { key: 'embed', icon: <CodeOutlined />, label: t('chat.embed') },
              { key: 'api', icon: <ApiOutlined />, label: t('chat.apiPanel') },
              { type: 'divider' },
              { key: 'delete', icon: <DeleteOutlined />, label: t('common.delete'), danger: true },
            ],
            onClick: ({ key }) => (key === 'delete' ? onDelete() : onAction(key as AssistantAction)),
          }}
        >
          <Button
            type="text"
            size="small"
            icon={<MoreOutlined />}
            aria-label={t('chat.assistantMenu', { name: dialog.name })}
          />
        </Dropdown>
      </div>
    </li>
  );
}

/** The caller's assistants as cards: select one, create, and per card edit / embed / API / delete. */
export function AssistantList({
  dialogs,
  loading,
  selected,
  onSelect,
  onCreate,
  onAction,
}: {
  dialogs: Dialog[];
  loading: boolean;
  selected: string | null;
  onSelect: (id: string | null) => void;
  onCreate: () => void;
  onAction: (dialog: Dialog, action: AssistantAction) => void;
}) {
  const { t } = useTranslation();
  const remove = useRemoveDialogs();
  const [modal, holder] = Modal.useModal();

  const confirmDelete = (d: Dialog) => {
    void modal.confirm({
      title: t('chat.deleteAssistantTitle'),
      content: t('chat.deleteAssistantConfirm', { name: d.name }),
      okText: t('common.delete'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        const result = await remove.mutateAsync([d.id]);
        if (result.code === 0) {
          feedback.success(t('message.deleted'));
          if (selected === d.id) onSelect(null);
        } else if (!alreadyShown(result)) feedback.error(result.message);
      },
    });
  };

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8, minHeight: 0, height: '100%' }}>
      {holder}
      <Button type="primary" icon={<PlusOutlined />} onClick={onCreate} block>
        {t('chat.createAssistant')}
      </Button>
      {loading ? (
        <Spin style={{ padding: 24 }} />
      ) : dialogs.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chat.noAssistants')} />
      ) : (
        <ul
          aria-label={t('chat.assistants')}
          style={{
            margin: 0,
            padding: 0,
            display: 'flex',
            flexDirection: 'column',
            gap: 8,
            overflowY: 'auto',
          }}
        >
          {dialogs.map((d) => (
            <AssistantCard
              key={d.id}
              dialog={d}
              active={d.id === selected}
              onSelect={() => onSelect(d.id)}
              onAction={(a) => onAction(d, a)}
              onDelete={() => confirmDelete(d)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
