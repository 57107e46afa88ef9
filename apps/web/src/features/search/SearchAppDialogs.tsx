import { useEffect, useState } from 'react';
import { Button, Form, Input, Modal, Space, Typography } from 'antd';
import { LinkOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../api/feedback';
import { alreadyShown, type ApiResult } from '../../api/request';
import { useSubmitOnce } from '../../api/submit-once';
import { useApiTokens, useCreateApiToken, useDeleteApiToken } from '../../api/system';
import { ShareLinks } from '../../components/ShareLinks';
import { ShownOnce } from '../../components/ShownOnce';
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
 * The public link of a search app: the app id and the beta token of one of the team's API keys. The
 * server keeps only hashes and hints of beta tokens, so a link is made here (a new key) and shown once;
 * the keys whose tokens open links are listed by their hints, each with a delete (which revokes every
 * link made with it).
 */
export function ShareDialog({ searchId, onClose }: { searchId: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const tokens = useApiTokens();
  const create = useCreateApiToken();
  const remove = useDeleteApiToken();
  const once = useSubmitOnce();
  const [link, setLink] = useState<string | null>(null);

  const report = (result: ApiResult<unknown> | null, success: string) => {
    if (!result) return;
    if (result.code === 0) feedback.success(success);
    else if (!alreadyShown(result)) feedback.error(result.message);
  };

  const close = () => {
    setLink(null);
    onClose();
  };

  return (
    <Modal
      open={searchId !== null}
      title={t('search.apps.shareTitle')}
      onCancel={close}
      footer={null}
      destroyOnHidden
    >
      <Space orientation="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('search.apps.shareHint')}</Typography.Text>
        {link ? (
          <ShownOnce value={link} label={t('search.apps.newShareLink')} testId="search-share-link" />
        ) : (
          <Button
            type="primary"
            icon={<LinkOutlined />}
            loading={once.pending}
            onClick={async () => {
              const result = await once.run((key) => create.mutateAsync(key));
              const beta = result?.code === 0 ? result.data?.beta : null;
              if (beta && searchId) setLink(shareLink(window.location.origin, searchId, beta));
              report(result, t('message.created'));
            }}
          >
            {t('search.apps.createShareLink')}
          </Button>
        )}
        <ShareLinks
          rows={tokens.data ?? []}
          loading={tokens.isPending}
          labels={{
            title: t('search.apps.shareLinks'),
            empty: t('search.apps.noShareLinks'),
            delete: t('search.apps.deleteShareLink'),
            deleteConfirm: t('search.apps.deleteShareLinkConfirm'),
          }}
          onDelete={async (row) => report(await remove.mutateAsync(row.token), t('message.deleted'))}
        />
      </Space>
    </Modal>
  );
}
