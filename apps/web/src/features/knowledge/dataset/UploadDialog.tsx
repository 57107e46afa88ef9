import { useState } from 'react';
import { Alert, Button, List, Modal, Space, Switch, Tag, Typography, Upload } from 'antd';
import { DeleteOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DocRun, formatBytes, UPLOAD_LIMITS, type DocumentInfo } from '@lectern/shared';
import { useRunDocuments, useUploadDocuments } from '../../../api/document';
import { feedback } from '../../../api/feedback';
import { alreadyShown } from '../../../api/request';
import {
  ACCEPT_ATTRIBUTE,
  checkBatch,
  fileProblem,
  refusedByServer,
  type FileProblem,
} from '../upload-limits';

type UploadState = 'ready' | 'uploading' | 'failed' | 'uploaded';

interface Entry {
  uid: string;
  file: File;
  state: UploadState;
  error?: string;
}

const STATE_COLORS: Record<UploadState, string> = {
  ready: 'default',
  uploading: 'processing',
  failed: 'error',
  uploaded: 'success',
};

const PROBLEM_KEYS: Record<FileProblem, string> = {
  badExtension: 'knowledge.uploadBadExtension',
  tooLarge: 'knowledge.uploadTooLarge',
};

let uidCounter = 0;

/** Drag-and-drop upload with per-file states (uploading / upload failed / uploaded) and optional parsing. */
export function UploadDialog({ kbId, onClose }: { kbId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [entries, setEntries] = useState<Entry[]>([]);
  // On by default: a new user expects an upload to become searchable, not to sit "Pending".
  const [parseOnCreation, setParseOnCreation] = useState(true);
  const upload = useUploadDocuments(kbId);
  const run = useRunDocuments(kbId);
  const limit = { size: formatBytes(UPLOAD_LIMITS.maxFileBytes), count: UPLOAD_LIMITS.maxFilesPerBatch };

  const problemText = (problem: FileProblem, file: File) =>
    t(PROBLEM_KEYS[problem], { name: file.name, ext: file.name.split('.').pop() ?? '', max: limit.size });

  const add = (file: File) => {
    const problem = fileProblem(file);
    const entry: Entry = {
      uid: `u${++uidCounter}`,
      file,
      state: problem ? 'failed' : 'ready',
      error: problem ? problemText(problem, file) : undefined,
    };
    setEntries((list) => [...list, entry]);
  };

  const ready = entries.filter((e) => e.state === 'ready');
  const tooMany = checkBatch(ready.map((e) => e.file)).tooMany;
  const busy = upload.isPending || run.isPending;

  const setStates = (update: (e: Entry) => Entry) => setEntries((list) => list.map(update));

  const send = async () => {
    const batch = ready;
    const uids = new Set(batch.map((e) => e.uid));
    setStates((e) => (uids.has(e.uid) ? { ...e, state: 'uploading', error: undefined } : e));
    const result = await upload.mutateAsync(batch.map((e) => e.file));
    const refused = refusedByServer(
      batch.map((e) => e.file.name),
      result.code,
      result.message,
    );
    setStates((e) => {
      if (!uids.has(e.uid)) return e;
      const reason = refused.get(e.file.name);
      return reason !== undefined ? { ...e, state: 'failed', error: reason } : { ...e, state: 'uploaded' };
    });
    const stored: DocumentInfo[] = Array.isArray(result.data) ? result.data : [];
    if (result.code === 0) feedback.success(t('message.uploaded'));
    else if (!alreadyShown(result)) feedback.error(result.message);
    if (parseOnCreation && stored.length > 0) {
      const started = await run.mutateAsync({ docIds: stored.map((d) => d.id), run: DocRun.RUNNING });
      if (started.code !== 0 && !alreadyShown(started)) feedback.error(started.message);
    }
  };

  const stateLabel = (state: UploadState) => t(`knowledge.uploadState.${state}`);

  return (
    <Modal
      open
      width={640}
      title={t('knowledge.uploadTitle')}
      onCancel={onClose}
      footer={[
        <Button key="close" onClick={onClose}>
          {t('knowledge.close')}
        </Button>,
        <Button
          key="upload"
          type="primary"
          loading={busy}
          disabled={ready.length === 0 || tooMany}
          onClick={() => void send()}
        >
          {t('knowledge.uploadAction', { count: ready.length })}
        </Button>,
      ]}
    >
      <Upload.Dragger
        multiple
        accept={ACCEPT_ATTRIBUTE}
        showUploadList={false}
        beforeUpload={(file) => {
          add(file);
          return Upload.LIST_IGNORE;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('knowledge.uploadDrop')}</p>
        <p className="ant-upload-hint">{t('knowledge.uploadLimits', limit)}</p>
      </Upload.Dragger>
      <Space style={{ margin: '16px 0' }}>
        <Switch id="parse-on-creation" checked={parseOnCreation} onChange={setParseOnCreation} />
        <label htmlFor="parse-on-creation">{t('knowledge.parseOnCreation')}</label>
      </Space>
      {tooMany && (
        <Alert
          type="error"
          showIcon
          title={t('knowledge.uploadTooMany', limit)}
          style={{ marginBottom: 12 }}
        />
      )}
      {entries.length > 0 && (
        <List
          size="small"
          bordered
          aria-label={t('knowledge.uploadList')}
          dataSource={entries}
          renderItem={(e) => (
            <List.Item
              data-testid="upload-entry"
              data-state={e.state}
              actions={[
                <Button
                  key="remove"
                  type="text"
                  size="small"
                  icon={<DeleteOutlined />}
                  disabled={e.state === 'uploading'}
                  aria-label={t('knowledge.uploadRemove', { name: e.file.name })}
                  onClick={() => setEntries((list) => list.filter((x) => x.uid !== e.uid))}
                />,
              ]}
            >
              <div style={{ minWidth: 0, flex: 1 }}>
                <Space size={8} wrap>
                  <Typography.Text ellipsis style={{ maxWidth: 320 }}>
                    {e.file.name}
                  </Typography.Text>
                  <Typography.Text type="secondary">{formatBytes(e.file.size)}</Typography.Text>
                  <Tag color={STATE_COLORS[e.state]}>{stateLabel(e.state)}</Tag>
                </Space>
                {e.error && (
                  <Typography.Paragraph type="danger" style={{ margin: 0, fontSize: 12 }}>
                    {e.error}
                  </Typography.Paragraph>
                )}
              </div>
            </List.Item>
          )}
        />
      )}
    </Modal>
  );
}
