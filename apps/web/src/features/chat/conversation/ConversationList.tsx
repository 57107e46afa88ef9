import { useState } from 'react';
import { Button, Dropdown, Empty, Form, Input, Modal, Spin, Typography, theme } from 'antd';
import { DeleteOutlined, EditOutlined, MessageOutlined, MoreOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Conversation } from '@lectern/shared';
import {
  useConversationList,
  useCreateConversation,
  useRemoveConversations,
  useRenameConversation,
} from '../../../api/conversation';
import { feedback } from '../../../api/feedback';
import { alreadyShown, type ApiResult } from '../../../api/request';
import { useSubmitOnce } from '../../../api/submit-once';
import { newId } from '../lib/messages';

function RenameDialog({ conversation, onClose }: { conversation: Conversation | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const rename = useRenameConversation();
  return (
    <Modal
      open={conversation !== null}
      title={t('chat.renameConversation')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={rename.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ name: conversation?.name ?? '' }}
        onFinish={async ({ name }) => {
          if (!conversation) return;
          const result = await rename.mutateAsync({ conversationId: conversation.id, name: name.trim() });
          if (result.code === 0) {
            feedback.success(t('message.renamed'));
            onClose();
          } else if (!alreadyShown(result)) feedback.error(result.message);
        }}
      >
        <Form.Item
          name="name"
          label={t('chat.conversationName')}
          rules={[{ required: true, whitespace: true, message: t('chat.conversationNameRequired') }]}
        >
          <Input autoFocus maxLength={255} onPressEnter={() => form.submit()} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** An assistant's conversations, newest first: new, select, rename, delete (after confirming). */
export function ConversationList({
  dialogId,
  selected,
  onSelect,
}: {
  dialogId: string;
  selected: string | null;
  onSelect: (id: string | null) => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const list = useConversationList(dialogId);
  const create = useCreateConversation();
  const remove = useRemoveConversations(dialogId);
  const [renaming, setRenaming] = useState<Conversation | null>(null);
  const [modal, holder] = Modal.useModal();

  const report = (result: ApiResult<unknown>, success: string) => {
    if (result.code === 0) feedback.success(success);
    else if (!alreadyShown(result)) feedback.error(result.message);
  };

  const once = useSubmitOnce();
  const startNew = async () => {
    const id = newId();
    const result = await once.run(() =>
      create.mutateAsync({ dialogId, conversationId: id, name: t('chat.newConversation') }),
    );
    if (!result) return; // a second click while the first conversation is being made
    if (result.code === 0) onSelect(id);
    else if (!alreadyShown(result)) feedback.error(result.message);
  };

  const confirmDelete = (c: Conversation) => {
    void modal.confirm({
      title: t('chat.deleteConversationTitle'),
      content: t('chat.deleteConversationConfirm', { name: c.name }),
      okText: t('common.delete'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        const result = await remove.mutateAsync([c.id]);
        report(result, t('message.deleted'));
        if (result.code === 0 && selected === c.id) onSelect(null);
      },
    });
  };

  const conversations = list.data ?? [];
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8, minHeight: 0, height: '100%' }}>
      {holder}
      <Button icon={<PlusOutlined />} onClick={() => void startNew()} loading={once.pending} block>
        {t('chat.newConversation')}
      </Button>
      {list.isPending ? (
        <Spin style={{ padding: 24 }} />
      ) : conversations.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chat.noConversations')} />
      ) : (
        <ul
          aria-label={t('chat.conversations')}
          style={{ listStyle: 'none', margin: 0, padding: 0, overflowY: 'auto' }}
        >
          {conversations.map((c) => {
            const active = c.id === selected;
            return (
              <li
                key={c.id}
                style={{
                  display: 'flex',
                  alignItems: 'center',
                  gap: 4,
                  borderRadius: 8,
                  background: active ? token.colorPrimaryBg : undefined,
                }}
              >
                <Button
                  type="text"
                  icon={<MessageOutlined />}
                  aria-current={active ? 'true' : undefined}
                  onClick={() => onSelect(c.id)}
                  style={{ flex: 1, minWidth: 0, justifyContent: 'flex-start' }}
                >
                  <Typography.Text ellipsis style={{ maxWidth: '100%' }}>
                    {c.name}
                  </Typography.Text>
                </Button>
                <Dropdown
                  trigger={['click']}
                  menu={{
                    items: [
                      { key: 'rename', icon: <EditOutlined />, label: t('chat.rename') },
                      { key: 'delete', icon: <DeleteOutlined />, label: t('common.delete'), danger: true },
                    ],
                    onClick: ({ key }) => (key === 'rename' ? setRenaming(c) : confirmDelete(c)),
                  }}
                >
                  <Button
                    type="text"
                    size="small"
                    icon={<MoreOutlined />}
                    aria-label={t('chat.conversationMenu', { name: c.name })}
                  />
                </Dropdown>
              </li>
            );
          })}
        </ul>
      )}
      <RenameDialog conversation={renaming} onClose={() => setRenaming(null)} />
    </div>
  );
}
