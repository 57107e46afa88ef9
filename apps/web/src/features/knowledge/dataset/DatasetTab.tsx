import { useState } from 'react';
import { Button, Empty, Input, Modal, Select, Space, Table, Typography } from 'antd';
import {
  CheckOutlined,
  DeleteOutlined,
  PlayCircleOutlined,
  StopOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DocRun, type DocumentInfo, type KbDetail } from '@lectern/shared';
import {
  useChangeDocStatus,
  useDocumentList,
  useRemoveDocuments,
  useRunDocuments,
  type RunInput,
} from '../../../api/document';
import { feedback } from '../../../api/feedback';
import { alreadyShown, type ApiResult } from '../../../api/request';
import { runKey } from '../progress';
import { ChangeParserDialog } from './ChangeParserDialog';
import { useDocumentColumns } from './columns';
import { MetadataDialog } from './MetadataDialog';
import { RenameDialog } from './RenameDialog';
import { ReparseDialog } from './ReparseDialog';
import type { DocAction } from './RowActions';
import { UploadDialog } from './UploadDialog';

const STATUS_FILTERS = [DocRun.UNSTART, DocRun.RUNNING, DocRun.CANCEL, DocRun.DONE, DocRun.FAIL];

type Dialog =
  | { kind: 'rename' | 'parser' | 'meta'; doc: DocumentInfo }
  | { kind: 'reparse'; docs: DocumentInfo[] }
  | { kind: 'upload' }
  | null;

/** Documents of a knowledge base: search, status filter, upload, parse/cancel/re-parse, batch actions. */
export default function DatasetTab({ kb }: { kb: KbDetail }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const [keywords, setKeywords] = useState('');
  const [runStatus, setRunStatus] = useState<DocRun[]>([]);
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [modal, holder] = Modal.useModal();

  const list = useDocumentList({ kbId: kb.id, page, pageSize, keywords, runStatus });
  const run = useRunDocuments(kb.id);
  const status = useChangeDocStatus(kb.id);
  const remove = useRemoveDocuments(kb.id);
  const docs = list.data?.docs ?? [];
  const selectedDocs = docs.filter((d) => selected.includes(d.id));

  const report = (result: ApiResult<unknown>, success: string): boolean => {
    if (result.code === 0) {
      feedback.success(success);
      return true;
    }
    if (!alreadyShown(result)) feedback.error(result.message);
    return false;
  };

  const startRun = async (input: RunInput) => {
    const ok = report(await run.mutateAsync(input), t('message.operated'));
    if (ok) setDialog(null);
  };

  /** Parse: documents parsed before get the clear-chunks question first. */
  const parse = (targets: DocumentInfo[]) => {
    const parsed = targets.filter((d) => runKey(d.run) !== 'unstart' || d.chunk_num > 0);
    if (parsed.length > 0) setDialog({ kind: 'reparse', docs: targets });
    else void startRun({ docIds: targets.map((d) => d.id), run: DocRun.RUNNING });
  };

  const confirmDelete = (targets: DocumentInfo[]) => {
    void modal.confirm({
      title: t('knowledge.deleteDocsTitle', { count: targets.length }),
      content:
        targets.length === 1
          ? t('knowledge.deleteDocConfirm', { name: targets[0].name })
          : t('knowledge.deleteDocsConfirm'),
      okText: t('common.delete'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        if (report(await remove.mutateAsync(targets.map((d) => d.id)), t('message.deleted'))) {
          setSelected((ids) => ids.filter((id) => !targets.some((d) => d.id === id)));
        }
      },
    });
  };

  const setEnabled = async (targets: DocumentInfo[], enabled: boolean) => {
    report(
      await status.mutateAsync({ docIds: targets.map((d) => d.id), status: enabled ? '1' : '0' }),
      t('message.modified'),
    );
  };

  const onAction = (action: DocAction, doc: DocumentInfo) => {
    if (action === 'run' || action === 'reparse') parse([doc]);
    else if (action === 'cancel') void startRun({ docIds: [doc.id], run: DocRun.CANCEL });
    else if (action === 'delete') confirmDelete([doc]);
    else setDialog({ kind: action, doc });
  };

  const columns = useDocumentColumns(onAction, (doc, enabled) => void setEnabled([doc], enabled));
  const anyRunning = selectedDocs.some((d) => runKey(d.run) === 'running');

  return (
    <div>
      {holder}
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('knowledge.searchDocs')}
          aria-label={t('knowledge.searchDocs')}
          onSearch={(value) => {
            setKeywords(value.trim());
            setPage(1);
          }}
          style={{ width: 260 }}
        />
        <Select
          mode="multiple"
          allowClear
          placeholder={t('knowledge.statusFilter')}
          aria-label={t('knowledge.statusFilter')}
          value={runStatus}
          onChange={(v) => {
            setRunStatus(v);
            setPage(1);
          }}
          options={STATUS_FILTERS.map((s) => ({ value: s, label: t(`knowledge.run.${runKey(s)}`) }))}
          style={{ minWidth: 220 }}
        />
        <div style={{ flex: 1 }} />
        {selectedDocs.length > 0 && (
          <Space wrap role="group" aria-label={t('knowledge.batchActions')}>
            <Typography.Text type="secondary">
              {t('knowledge.selected', { count: selectedDocs.length })}
            </Typography.Text>
            <Button icon={<CheckOutlined />} onClick={() => void setEnabled(selectedDocs, true)}>
              {t('knowledge.enable')}
            </Button>
            <Button icon={<StopOutlined />} onClick={() => void setEnabled(selectedDocs, false)}>
              {t('knowledge.disable')}
            </Button>
            <Button icon={<PlayCircleOutlined />} disabled={anyRunning} onClick={() => parse(selectedDocs)}>
              {t('knowledge.parseSelected')}
            </Button>
            <Button danger icon={<DeleteOutlined />} onClick={() => confirmDelete(selectedDocs)}>
              {t('common.delete')}
            </Button>
          </Space>
        )}
        <Button type="primary" icon={<UploadOutlined />} onClick={() => setDialog({ kind: 'upload' })}>
          {t('knowledge.uploadFiles')}
        </Button>
      </div>
      <Table<DocumentInfo>
        rowKey="id"
        size="middle"
        loading={list.isPending}
        dataSource={docs}
        columns={columns}
        scroll={{ x: 1000 }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }}
        locale={{
          emptyText: (
            <Empty
              description={
                keywords || runStatus.length > 0 ? t('knowledge.noDocsMatch') : t('knowledge.noDocs')
              }
            />
          ),
        }}
        pagination={{
          current: page,
          pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => t('knowledge.totalDocs', { total }),
          onChange: (p, size) => {
            setPage(size !== pageSize ? 1 : p);
            setPageSize(size);
          },
        }}
      />
      {dialog?.kind === 'upload' && <UploadDialog kbId={kb.id} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'rename' && <RenameDialog doc={dialog.doc} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'parser' && <ChangeParserDialog doc={dialog.doc} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'meta' && <MetadataDialog doc={dialog.doc} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'reparse' && (
        <ReparseDialog
          count={dialog.docs.length}
          pending={run.isPending}
          onClose={() => setDialog(null)}
          onRun={(clear) =>
            void startRun({ docIds: dialog.docs.map((d) => d.id), run: DocRun.RUNNING, delete: clear })
          }
        />
      )}
    </div>
  );
}
