import { useState } from 'react';
import { Alert, Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { S3ImportAnswer } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import { useImportS3 } from '../../api/file';
import { showFailure } from '../../api/request';

interface S3Form {
  endpoint: string;
  bucket: string;
  prefix?: string;
  region?: string;
  access_key: string;
  secret_key: string;
}

/** Import from an S3-compatible bucket: the objects under the prefix land in the current folder. */
export function S3ImportDialog({ parentId, onClose }: { parentId?: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<S3Form>();
  const importS3 = useImportS3();
  const [outcome, setOutcome] = useState<S3ImportAnswer | null>(null);

  const submit = async (values: S3Form) => {
    setOutcome(null);
    const result = await importS3.mutateAsync({
      ...values,
      prefix: values.prefix?.trim() || undefined,
      region: values.region?.trim() || undefined,
      parent_id: parentId,
    });
    if (result.code === 0 && result.data) {
      feedback.success(t('files.s3Imported', { count: result.data.files.length }));
      if (result.data.skipped.length === 0) onClose();
      else setOutcome(result.data);
    } else {
      showFailure(result);
    }
  };

  const required = (label: string) => [
    { required: true, whitespace: true, message: t('files.required', { label }) },
  ];
  return (
    <Modal
      open
      width={560}
      title={t('files.s3Title')}
      okText={t('files.s3Import')}
      cancelText={t('common.cancel')}
      confirmLoading={importS3.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">{t('files.s3Description')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ region: 'us-east-1' }}>
        <Form.Item name="endpoint" label={t('files.s3Endpoint')} rules={required(t('files.s3Endpoint'))}>
          <Input placeholder="https://s3.example.com" autoComplete="off" />
        </Form.Item>
        <Form.Item name="bucket" label={t('files.s3Bucket')} rules={required(t('files.s3Bucket'))}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="prefix" label={t('files.s3Prefix')} extra={t('files.s3PrefixHint')}>
          <Input placeholder="reports/2024/" autoComplete="off" />
        </Form.Item>
        <Form.Item name="region" label={t('files.s3Region')}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="access_key" label={t('files.s3AccessKey')} rules={required(t('files.s3AccessKey'))}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="secret_key" label={t('files.s3SecretKey')} rules={required(t('files.s3SecretKey'))}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
      {outcome && (
        <Alert
          type="warning"
          showIcon
          title={t('files.s3Skipped', { count: outcome.skipped.length })}
          description={
            <ul style={{ margin: 0, paddingLeft: 16 }}>
              {outcome.skipped.slice(0, 20).map((s) => (
                <li key={s.key}>
                  {s.key}: {s.reason}
                </li>
              ))}
            </ul>
          }
        />
      )}
    </Modal>
  );
}
