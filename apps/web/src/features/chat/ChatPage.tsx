import { useState, type CSSProperties } from 'react';
import { Button, Empty, Typography, theme } from 'antd';
import { MessageOutlined, PlusOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Dialog } from '@lectern/shared';
import { useDialogList } from '../../api/dialog';
import { ApiPanel } from './api-panel/ApiPanel';
import { AssistantList, type AssistantAction } from './assistants/AssistantList';
import { ConversationList } from './conversation/ConversationList';
import { ConversationView } from './conversation/ConversationView';
import { DocumentPreviewProvider } from './conversation/DocumentPreview';
import { EmbedModal } from './embed/EmbedModal';
import { DialogConfigModal } from './settings/DialogConfigModal';

/**
 * Chat: assistants on the left, the selected assistant's conversations in the middle, the selected
 * conversation on the right. The selection lives in the address (`?dialog=…&conversation=…`).
 */
export default function ChatPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [params, setParams] = useSearchParams();
  const dialogs = useDialogList();
  const [editing, setEditing] = useState<{ dialog: Dialog | null } | null>(null);
  const [panel, setPanel] = useState<{ dialog: Dialog; action: 'embed' | 'api' } | null>(null);

  const list = dialogs.data ?? [];
  const dialogId = params.get('dialog');
  const dialog = list.find((d) => d.id === dialogId) ?? null;
  const conversationId = dialog ? params.get('conversation') : null;

  const select = (next: { dialog?: string | null; conversation?: string | null }) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) {
      if (v) p.set(k, v);
      else p.delete(k);
    }
    setParams(p, { replace: false });
  };

  const onAction = (d: Dialog, action: AssistantAction) => {
    if (action === 'edit') setEditing({ dialog: d });
    else setPanel({ dialog: d, action });
  };

  const column = (width: number | string): CSSProperties => ({
    width,
    flex: typeof width === 'number' ? 'none' : 1,
    minWidth: 0,
    display: 'flex',
    flexDirection: 'column',
    padding: 12,
    borderRight: `1px solid ${token.colorBorderSecondary}`,
  });

  return (
    <DocumentPreviewProvider>
      <div
        style={{
          display: 'flex',
          height: 'calc(100vh - 64px - 48px)',
          minHeight: 480,
          background: token.colorBgContainer,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: 12,
          overflow: 'hidden',
        }}
      >
        <section aria-label={t('chat.assistants')} style={column(280)}>
          <Typography.Title level={1} style={{ fontSize: 18, margin: '0 0 12px' }}>
            {t('chat.title')}
          </Typography.Title>
          <AssistantList
            dialogs={list}
            loading={dialogs.isPending}
            selected={dialog?.id ?? null}
            onSelect={(id) => select({ dialog: id, conversation: null })}
            onCreate={() => setEditing({ dialog: null })}
            onAction={onAction}
          />
        </section>
        {dialog ? (
          <>
            <section aria-label={t('chat.conversations')} style={column(240)}>
              <Typography.Title level={2} style={{ fontSize: 15, margin: '4px 0 12px' }} ellipsis>
                {dialog.name}
              </Typography.Title>
              <ConversationList
                dialogId={dialog.id}
                selected={conversationId}
                onSelect={(id) => select({ conversation: id })}
              />
            </section>
            <section aria-label={t('chat.conversation')} style={{ ...column('auto'), borderRight: 'none' }}>
              <ConversationView
                key={dialog.id}
                dialog={dialog}
                conversationId={conversationId}
                onCreated={(id) => select({ conversation: id })}
              />
            </section>
          </>
        ) : (
          <div style={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
            <Empty
              image={<MessageOutlined style={{ fontSize: 56, opacity: 0.4 }} />}
              description={list.length === 0 ? t('chat.emptyAssistants') : t('chat.pickAssistant')}
            >
              {list.length === 0 && !dialogs.isPending && (
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ dialog: null })}>
                  {t('chat.createAssistant')}
                </Button>
              )}
            </Empty>
          </div>
        )}
      </div>
      <DialogConfigModal
        open={editing !== null}
        dialog={editing?.dialog ?? null}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          if (!editing?.dialog) select({ dialog: saved.id, conversation: null });
        }}
      />
      <EmbedModal dialog={panel?.action === 'embed' ? panel.dialog : null} onClose={() => setPanel(null)} />
      <ApiPanel dialog={panel?.action === 'api' ? panel.dialog : null} onClose={() => setPanel(null)} />
    </DocumentPreviewProvider>
  );
}
