import { useEffect } from 'react';
import { Alert, Button, Form, Input, Popconfirm, Space, Spin } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../api/feedback';
import { alreadyShown } from '../../api/request';
import { useDeleteTracingKeys, useSaveTracingKeys, useTracingKeys } from '../../api/tracing';
import { SectionHeading } from '../../components/SectionHeading';

interface TracingValues {
  host: string;
  public_key: string;
  secret_key: string;
}

/**
 * Langfuse keys of the team (API.md §14): the server checks them against the host before storing
 * them, then traces every chat answer and agent run there. The stored secret comes back masked;
 * saving the masked value unchanged keeps it.
 */
export default function TracingPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<TracingValues>();
  const current = useTracingKeys();
  const save = useSaveTracingKeys();
  const remove = useDeleteTracingKeys();
  const answer = current.data;
  const stored = answer?.code === 0 ? (answer.data ?? null) : null;

  useEffect(() => {
    if (stored)
      form.setFieldsValue({
        host: stored.host,
        public_key: stored.public_key,
        secret_key: stored.secret_key,
      });
  }, [stored, form]);

  const submit = async (values: TracingValues) => {
    const result = await save.mutateAsync(values);
    if (result.code === 0) feedback.success(t('tracing.saved'));
    else if (!alreadyShown(result)) form.setFields([{ name: 'secret_key', errors: [result.message] }]);
  };

  const onDelete = async () => {
    const result = await remove.mutateAsync();
    if (result.code === 0) {
      form.resetFields();
      feedback.success(t('message.deleted'));
    } else if (!alreadyShown(result)) feedback.error(result.message);
  };

  return (
    <>
      <SectionHeading title={t('tracing.title')} description={t('tracing.description')} />
      {current.isPending ? (
        <Spin />
      ) : (
        <>
          {stored && (
            <Alert
              type="success"
              showIcon
              style={{ marginBottom: 16, maxWidth: 560 }}
              message={t('tracing.connected', { project: stored.project_name || stored.project_id })}
            />
          )}
          {answer && answer.code !== 0 && !alreadyShown(answer) && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 16, maxWidth: 560 }}
              message={t('tracing.storedKeysFailed')}
              description={answer.message}
            />
          )}
          <Form<TracingValues>
            form={form}
            layout="vertical"
            onFinish={submit}
            style={{ maxWidth: 560 }}
            initialValues={{ host: 'https://cloud.langfuse.com' }}
          >
            <Form.Item
              label={t('tracing.host')}
              name="host"
              extra={t('tracing.hostHint')}
              rules={[{ required: true, whitespace: true, message: t('tracing.hostRequired') }]}
            >
              <Input placeholder="https://cloud.langfuse.com" autoComplete="off" />
            </Form.Item>
            <Form.Item
              label={t('tracing.publicKey')}
              name="public_key"
              rules={[{ required: true, whitespace: true, message: t('tracing.publicKeyRequired') }]}
            >
              <Input placeholder="pk-lf-…" autoComplete="off" />
            </Form.Item>
            <Form.Item
              label={t('tracing.secretKey')}
              name="secret_key"
              extra={stored ? t('tracing.secretKept') : undefined}
              rules={[{ required: true, whitespace: true, message: t('tracing.secretKeyRequired') }]}
            >
              <Input.Password placeholder="sk-lf-…" autoComplete="new-password" />
            </Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" loading={save.isPending}>
                {t('tracing.save')}
              </Button>
              {stored && (
                <Popconfirm
                  title={t('tracing.delete')}
                  description={t('tracing.deleteConfirm')}
                  okText={t('common.delete')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={onDelete}
                >
                  <Button danger icon={<DeleteOutlined />} loading={remove.isPending}>
                    {t('tracing.delete')}
                  </Button>
                </Popconfirm>
              )}
            </Space>
          </Form>
        </>
      )}
    </>
  );
}
