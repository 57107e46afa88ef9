import { useState } from 'react';
import { Alert, Button, Modal, Radio, Space, Spin, Typography } from 'antd';
import { ExportOutlined, KeyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Dialog } from '@lectern/shared';
import { useCreateDialogToken, useDialogTokens } from '../../../api/chat-api';
import { feedback } from '../../../api/feedback';
import { alreadyShown } from '../../../api/request';
import { currentLanguage } from '../../../i18n';
import { EMBED_KINDS, embedSnippet, shareUrl, type EmbedKind } from '../lib/embed';

const KIND_LABEL: Record<EmbedKind, string> = {
  fullscreen: 'chat.embedFullscreen',
  partial: 'chat.embedPartial',
  extension: 'chat.embedExtension',
};

/**
 * Embed an assistant in a web page: a full-screen iframe, a partial (floating) window or a browser
 * extension, all showing the shared chat page with the assistant's beta token (an API key is needed).
 */
export function EmbedModal({ dialog, onClose }: { dialog: Dialog | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<EmbedKind>('fullscreen');
  const tokens = useDialogTokens(dialog?.id);
  const create = useCreateDialogToken(dialog?.id ?? '');
  const beta = (tokens.data ?? []).find((row) => row.beta)?.beta ?? null;
  const url = dialog && beta ? shareUrl(window.location.origin, dialog.id, beta, currentLanguage()) : null;
  const snippet = url && dialog ? embedSnippet(kind, url, dialog.name) : '';

  return (
    <Modal
      open={dialog !== null}
      title={t('chat.embedTitle', { name: dialog?.name ?? '' })}
      footer={null}
      onCancel={onClose}
      width={720}
      destroyOnHidden
    >
      {tokens.isPending ? (
        <Spin />
      ) : !url ? (
        <Alert
          type="warning"
          showIcon
          title={t('message.createApiKeyFirst')}
          action={
            <Button
              size="small"
              icon={<KeyOutlined />}
              loading={create.isPending}
              onClick={async () => {
                const result = await create.mutateAsync();
                if (result.code === 0) feedback.success(t('message.created'));
                else if (!alreadyShown(result)) feedback.error(result.message);
              }}
            >
              {t('chat.createApiKey')}
            </Button>
          }
        />
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }} size="middle">
          <Radio.Group
            value={kind}
            onChange={(e) => setKind(e.target.value as EmbedKind)}
            optionType="button"
            aria-label={t('chat.embedKind')}
            options={EMBED_KINDS.map((k) => ({ value: k, label: t(KIND_LABEL[k]) }))}
          />
          <Typography.Text type="secondary">{t(`chat.embedHint.${kind}`)}</Typography.Text>
          <Typography.Paragraph
            copyable={{ text: snippet, tooltips: [t('chat.copySnippet'), t('message.copied')] }}
            style={{ margin: 0 }}
          >
            <pre
              data-testid="embed-snippet"
              style={{ maxHeight: 320, overflow: 'auto', fontSize: 12, margin: 0 }}
            >
              {snippet}
            </pre>
          </Typography.Paragraph>
          <Button icon={<ExportOutlined />} href={url} target="_blank" rel="noopener">
            {t('chat.openSharedPage')}
          </Button>
        </Space>
      )}
    </Modal>
  );
}
