import { useEffect, useReducer, useRef } from 'react';
import { Alert, Button, Form, Input, Modal, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { RetCode, type S3ImportEvent } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import { streamImportS3, useRefreshFiles } from '../../api/file';
import { initialS3Progress, isRunning, s3ProgressReducer, type S3ImportProgress } from './s3-import-progress';

interface S3Form {
  endpoint: string;
  bucket: string;
  prefix?: string;
  region?: string;
  access_key: string;
  secret_key: string;
}

/** The objects that could not be imported, with their reasons. */
function SkippedList({ progress }: { progress: S3ImportProgress }) {
  const { t } = useTranslation();
  if (progress.skipped.length === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginTop: 12 }}
      title={t('files.s3Skipped', { count: progress.skipped.length })}
      description={
        <ul data-testid="s3-skipped" style={{ margin: 0, paddingLeft: 16, maxHeight: 160, overflow: 'auto' }}>
          {progress.skipped.map((s) => (
            <li key={s.key}>
              {s.key}: {s.reason}
            </li>
          ))}
        </ul>
      }
    />
  );
}

/** Where the import stands: listing, "12/340 imported" with a bar, or how it ended. */
function ProgressView({ progress }: { progress: S3ImportProgress }) {
  const { t } = useTranslation();
  const percent = progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
  const counts = { imported: progress.imported, total: progress.total };
  const line =
    progress.phase === 'listing'
      ? t('files.s3Listing')
      : progress.phase === 'stopped'
        ? t('files.s3Stopped', counts)
        : progress.phase === 'finished'
          ? t('files.s3Imported', { count: progress.imported })
          : t('files.s3Progress', counts);
  return (
    <div role="status" aria-live="polite" data-testid="s3-progress">
      <Progress
        percent={percent}
        status={
          progress.phase === 'failed' || progress.phase === 'stopped'
            ? 'exception'
            : progress.phase === 'finished'
              ? 'success'
              : 'active'
        }
      />
      <Typography.Text>{line}</Typography.Text>
      {progress.error && <Alert type="error" showIcon style={{ marginTop: 12 }} title={progress.error} />}
      <SkippedList progress={progress} />
    </div>
  );
}

/**
 * Import from an S3-compatible bucket: the objects under the prefix land in the current folder. The
 * import streams its progress (each object stored or skipped with its reason); Stop closes the stream,
 * which ends the import after the current object (what is stored stays).
 */
export function S3ImportDialog({ parentId, onClose }: { parentId?: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<S3Form>();
  const [progress, dispatch] = useReducer(s3ProgressReducer, initialS3Progress);
  const controller = useRef<AbortController | null>(null);
  const refresh = useRefreshFiles();
  const running = isRunning(progress);

  // Closing the page or the dialog mid-import stops it.
  useEffect(() => () => controller.current?.abort(), []);

  const submit = async (values: S3Form) => {
    const abort = new AbortController();
    controller.current = abort;
    dispatch({ type: 'start' });
    let failed = false;
    const outcome = await streamImportS3(
      {
        ...values,
        prefix: values.prefix?.trim() || undefined,
        region: values.region?.trim() || undefined,
        parent_id: parentId,
      },
      (envelope) => {
        if (envelope.code !== RetCode.SUCCESS) {
          failed = true;
          dispatch({ type: 'failed', message: envelope.message || t('files.s3Failed') });
          return;
        }
        dispatch({ type: 'event', event: envelope.data as S3ImportEvent });
      },
      abort.signal,
    );
    controller.current = null;
    refresh();
    if (outcome.aborted) dispatch({ type: 'stopped' });
    else if (!outcome.ok) {
      // refused before the first object: back to the form, with the reason
      dispatch({ type: 'reset' });
      if (!outcome.shown) feedback.error(outcome.message);
    } else if (!failed) dispatch({ type: 'stopped' }); // no-op once `finished` arrived
  };

  const stop = () => controller.current?.abort();
  const required = (label: string) => [
    { required: true, whitespace: true, message: t('files.required', { label }) },
  ];
  const footer =
    progress.phase === 'form'
      ? [
          <Button key="cancel" onClick={onClose}>
            {t('common.cancel')}
          </Button>,
          <Button key="ok" type="primary" onClick={() => form.submit()}>
            {t('files.s3Import')}
          </Button>,
        ]
      : running
        ? [
            <Button key="stop" danger onClick={stop}>
              {t('files.s3Stop')}
            </Button>,
          ]
        : [
            <Button key="close" type="primary" onClick={onClose}>
              {t('files.s3Close')}
            </Button>,
          ];
  return (
    <Modal
      open
      width={560}
      title={t('files.s3Title')}
      footer={footer}
      closable={!running}
      maskClosable={!running}
      keyboard={!running}
      onCancel={onClose}
    >
      {/* the form stays mounted (hidden) while importing: its instance keeps the values */}
      <div hidden={progress.phase !== 'form'}>
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
          <Form.Item
            name="access_key"
            label={t('files.s3AccessKey')}
            rules={required(t('files.s3AccessKey'))}
          >
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="secret_key"
            label={t('files.s3SecretKey')}
            rules={required(t('files.s3SecretKey'))}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </Form>
      </div>
      {progress.phase !== 'form' && <ProgressView progress={progress} />}
    </Modal>
  );
}
