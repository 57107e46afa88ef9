import { useEffect, useState } from 'react';
import { Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../api/feedback';
import { alreadyShown } from '../../api/request';
import { useApiTokens, useCreateApiToken } from '../../api/system';
import { shareLink } from './search-state';

/** Name (and description) of a new search app, or a new name for one. */
export function NameDialog({
  open,
  title,
  initial,
  withDescription,
  busy,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  initial: string;
  withDescription?: boolean;
  busy: boolean;
  onSubmit: (values: { name: string; description?: string }) => Promise<boolean>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string; description?: string }>();
  useEffect(() => {
    if (open) form.setFieldsValue({ name: initial, description: '' });
  }, [open, initial, form]);
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={async (v) => {
          if (await onSubmit({ ...v, name: v.name.trim() })) onClose();
        }}
      >
        <Form.Item
          name="name"
          label={t('search.apps.name')}
          rules={[{ required: true, whitespace: true, message: t('search.apps.nameRequired') }]}
        >
          <Input maxLength={255} autoFocus />
        </Form.Item>
        {withDescription && (
          <Form.Item name="description" label={t('search.apps.description')}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/**
 * The public link of a search app: the app id and the beta token of one of the tenant's API keys
 * (one is made when there is none yet).
 */
export function ShareDialog({ searchId, onClose }: { searchId: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const tokens = useApiTokens();
  const create = useCreateApiToken();
  const [link, setLink] = useState<string | null>(null);
  const beta = tokens.data?.find((k) => k.beta)?.beta ?? null;

  useEffect(() => {
    if (!searchId || tokens.isPending) return;
    if (beta) {
      setLink(shareLink(window.location.origin, searchId, beta));
      return;
    }
    if (create.isPending || tokens.isError) return;
    void create.mutateAsync(undefined).then((r) => {
      if (r.code !== 0 && !alreadyShown(r)) feedback.error(r.message);
    });
    // `create` changes on every render; the token list refreshes after it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchId, beta, tokens.isPending, tokens.isError]);

  return (
    <Modal
      open={searchId !== null}
      title={t('search.apps.shareTitle')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('search.apps.shareHint')}</Typography.Paragraph>
      {link && (
        <Typography.Paragraph copyable={{ text: link }} code data-testid="search-share-link">
          {link}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
