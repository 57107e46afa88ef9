import { Button, Flex, List, Modal, Progress, Space, Tag, Typography, Upload } from 'antd';
import { FileAddOutlined, FolderOutlined, InboxOutlined, RedoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { UPLOAD_LIMITS, formatBytes } from '@lectern/shared';
import { groupByTopFolder, summarize, type UploadState } from './upload-queue';
import type { UploadQueue } from './use-upload-queue';

const STATE_COLORS: Record<UploadState, string> = {
  queued: 'default',
  uploading: 'processing',
  failed: 'error',
  uploaded: 'success',
};

/**
 * Upload into the current folder: drop files and folders (folders keep their structure), or choose
 * files or a folder. Each file shows uploading / upload failed / uploaded with its progress, and a
 * failed one can be retried.
 */
export function UploadDialog({
  queue,
  parentId,
  onClose,
}: {
  queue: UploadQueue;
  parentId: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { entries, add, dispatch, clearFinished } = queue;
  const summary = summarize(entries);
  const pick = (file: File) => {
    add([file], parentId);
    return Upload.LIST_IGNORE;
  };

  return (
    <Modal
      open
      width={680}
      title={t('files.uploadTitle')}
      onCancel={onClose}
      footer={[
        <Button key="clear" disabled={summary.uploaded === 0} onClick={clearFinished}>
          {t('files.clearFinished')}
        </Button>,
        <Button
          key="retry"
          icon={<RedoOutlined />}
          disabled={summary.failed === 0}
          onClick={() => dispatch({ type: 'retryFailed' })}
        >
          {t('files.retryFailed', { count: summary.failed })}
        </Button>,
        <Button key="close" type="primary" onClick={onClose}>
          {t('files.close')}
        </Button>,
      ]}
    >
      <Upload.Dragger
        directory
        multiple
        showUploadList={false}
        beforeUpload={pick}
        openFileDialogOnClick={false}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('files.uploadDrop')}</p>
        <p className="ant-upload-hint">
          {t('files.uploadHint', { max: formatBytes(UPLOAD_LIMITS.maxFileBytes) })}
        </p>
        <Space onClick={(e) => e.stopPropagation()}>
          <Upload multiple showUploadList={false} beforeUpload={pick}>
            <Button icon={<FileAddOutlined />}>{t('files.chooseFiles')}</Button>
          </Upload>
          <Upload directory showUploadList={false} beforeUpload={pick}>
            <Button icon={<FolderOutlined />}>{t('files.chooseFolder')}</Button>
          </Upload>
        </Space>
      </Upload.Dragger>
      {entries.length > 0 && (
        <>
          <Flex align="center" gap={12} style={{ margin: '16px 0 8px' }}>
            <Progress
              percent={Math.floor(summary.progress * 100)}
              size="small"
              style={{ flex: 1, margin: 0 }}
            />
            <Typography.Text type="secondary" data-testid="upload-summary">
              {t('files.uploadSummary', {
                done: summary.uploaded,
                total: summary.total,
                failed: summary.failed,
              })}
            </Typography.Text>
          </Flex>
          <div style={{ maxHeight: 360, overflow: 'auto' }}>
            {groupByTopFolder(entries).map((group) => (
              <List
                key={group.folder ?? ''}
                size="small"
                bordered
                style={{ marginBottom: 8 }}
                header={
                  group.folder !== null ? (
                    <Space>
                      <FolderOutlined />
                      <Typography.Text strong>{group.folder}</Typography.Text>
                    </Space>
                  ) : undefined
                }
                aria-label={group.folder ?? t('files.uploadList')}
                dataSource={group.entries}
                renderItem={(e) => (
                  <List.Item
                    data-testid="upload-entry"
                    data-state={e.state}
                    data-path={e.path}
                    actions={
                      e.state === 'failed'
                        ? [
                            <Button
                              key="retry"
                              size="small"
                              type="link"
                              aria-label={t('files.retryOne', { name: e.path })}
                              onClick={() => dispatch({ type: 'retry', uid: e.uid })}
                            >
                              {t('files.retry')}
                            </Button>,
                          ]
                        : []
                    }
                  >
                    <div style={{ minWidth: 0, flex: 1 }}>
                      <Space size={8} wrap>
                        <Typography.Text ellipsis style={{ maxWidth: 360 }}>
                          {e.path}
                        </Typography.Text>
                        <Typography.Text type="secondary">{formatBytes(e.size)}</Typography.Text>
                        <Tag color={STATE_COLORS[e.state]}>{t(`files.uploadState.${e.state}`)}</Tag>
                      </Space>
                      {e.state === 'uploading' && (
                        <Progress percent={Math.floor(e.progress * 100)} size="small" style={{ margin: 0 }} />
                      )}
                      {e.error && (
                        <Typography.Paragraph type="danger" style={{ margin: 0, fontSize: 12 }}>
                          {e.error}
                        </Typography.Paragraph>
                      )}
                    </div>
                  </List.Item>
                )}
              />
            ))}
          </div>
        </>
      )}
    </Modal>
  );
}
