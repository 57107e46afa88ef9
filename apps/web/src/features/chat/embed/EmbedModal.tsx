import { useState } from 'react';
import { Alert, Button, Modal, Radio, Space, Typography } from 'antd';
import { ExportOutlined, LinkOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Dialog } from '@lectern/shared';
import { useCreateDialogToken, useDialogTokens, useRemoveDialogTokens } from '../../../api/chat-api';
import { feedback } from '../../../api/feedback';
import { alreadyShown, type ApiResult } from '../../../api/request';
import { useSubmitOnce } from '../../../api/submit-once';
import { ShareLinks } from '../../../components/ShareLinks';
import { currentLanguage } from '../../../i18n';
import { EMBED_KINDS, embedSnippet, shareUrl, type EmbedKind } from '../lib/embed';

const KIND_LABEL: Record<EmbedKind, string> = {
  fullscreen: 'chat.embedFullscreen',
  partial: 'chat.embedPartial',
  extension: 'chat.embedExtension',
};

/**
 * Embed an assistant in a web page: a full-screen iframe, a partial (floating) window or a browser
 * extension, all showing the shared chat page with the beta token of one of the assistant's API keys.
 * The server keeps only hashes and hints of those tokens, so a link is made here ("Create share link")
 * and shown once; the links made before are listed by their hints, each with a delete.
 */
export function EmbedModal({ dialog, onClose }: { dialog: Dialog | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<EmbedKind>('fullscreen');
  const [beta, setBeta] = useState<string | null>(null);
  const links = useDialogTokens(dialog?.id);
  const create = useCreateDialogToken(dialog?.id ?? '');
  const remove = useRemoveDialogTokens(dialog?.id ?? '');
  const once = useSubmitOnce();
  const url = dialog && beta ? shareUrl(window.location.origin, dialog.id, beta, currentLanguage()) : null;
  const snippet = url && dialog ? embedSnippet(kind, url, dialog.name) : '';

  const report = (result: ApiResult<unknown> | null, success: string) => {
    if (!result) return;
    if (result.code === 0) feedback.success(success);
    else if (!alreadyShown(result)) feedback.error(result.message);
  };

  const close = () => {
    setBeta(null);
    onClose();
  };

  return (
    <Modal
      open={dialog !== null}
      title={t('chat.embedTitle', { name: dialog?.name ?? '' })}
      footer={null}
      onCancel={close}
      width={720}
      destroyOnHidden
    >
      <Space orientation="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('chat.shareLinksHint')}</Typography.Text>
        {url ? (
          <>
            <Alert type="warning" showIcon title={t('chat.shareLinkOnce')} />
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
          </>
        ) : (
          <Button
            type="primary"
            icon={<LinkOutlined />}
            loading={once.pending}
            disabled={!dialog}
            onClick={async () => {
              const result = await once.run((key) => create.mutateAsync(key));
              if (result?.code === 0 && result.data) setBeta(result.data.beta);
              report(result, t('message.created'));
            }}
          >
            {t('chat.createShareLink')}
          </Button>
        )}
        <ShareLinks
          rows={links.data ?? []}
          loading={links.isPending}
          labels={{
            title: t('chat.shareLinks'),
            empty: t('chat.noShareLinks'),
            delete: t('chat.deleteShareLink'),
            deleteConfirm: t('chat.deleteShareLinkConfirm'),
          }}
          onDelete={async (row) => {
            const result = await remove.mutateAsync({ tokens: [row.token], tenantId: row.tenant_id });
            if (result.code === 0 && beta && row.beta?.startsWith(beta.slice(0, 4))) setBeta(null);
            report(result, t('message.deleted'));
          }}
        />
      </Space>
    </Modal>
  );
}
