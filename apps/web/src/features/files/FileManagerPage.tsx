import { useState } from 'react';
import { App, Breadcrumb, Button, Empty, Flex, Input, Space, Table, Typography } from 'antd';
import {
  CloudDownloadOutlined,
  DeleteOutlined,
  FolderAddOutlined,
  LinkOutlined,
  SwapOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { FileListItem } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import {
  FILE_PAGE_SIZE,
  useFileList,
  useParentFolders,
  useRefreshFiles,
  useRemoveFiles,
} from '../../api/file';
import { alreadyShown } from '../../api/request';
import { folderPath, useFileColumns, type FileAction } from './columns';
import { isReadOnly } from './file-rules';
import { LinkKbDialog } from './LinkKbDialog';
import { MoveDialog } from './MoveDialog';
import { NameDialog } from './NameDialog';
import { PreviewDrawer } from './PreviewDrawer';
import { S3ImportDialog } from './S3ImportDialog';
import { UploadDialog } from './UploadDialog';
import { useUploadQueue, type UploadQueue } from './use-upload-queue';

type Dialog =
  | { kind: 'newFolder' }
  | { kind: 'rename' | 'preview'; entry: FileListItem }
  | { kind: 'move' | 'link'; entries: FileListItem[] }
  | { kind: 'upload' }
  | { kind: 's3' };

/**
 * The file manager (SPEC §2): folders, upload, S3 import, move, rename, delete, preview, link to KBs.
 * Each folder (`/file?folder=<id>`) is its own view, so paging, search and selection start afresh;
 * the upload queue lives above them and keeps running while the user moves between folders.
 */
export default function FileManagerPage() {
  const [search] = useSearchParams();
  const folderId = search.get('folder') ?? undefined;
  const refresh = useRefreshFiles();
  const queue = useUploadQueue(refresh);
  return <FolderView key={folderId ?? ''} folderId={folderId} queue={queue} />;
}

function FolderView({ folderId, queue }: { folderId: string | undefined; queue: UploadQueue }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [page, setPage] = useState(1);
  const [keywords, setKeywords] = useState('');
  const [selected, setSelected] = useState<FileListItem[]>([]);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const list = useFileList({ parentId: folderId, page, pageSize: FILE_PAGE_SIZE, keywords });
  const parent = list.data?.parent_folder;
  const parents = useParentFolders(parent?.id);
  const remove = useRemoveFiles();
  const currentId = parent?.id ?? folderId;
  const readOnlyHere = parent ? isReadOnly(parent) : false;

  const confirmDelete = (entries: FileListItem[]) => {
    modal.confirm({
      title: t('files.deleteTitle', { count: entries.length }),
      content:
        entries.length === 1
          ? t('files.deleteOne', { name: entries[0]!.name })
          : t('files.deleteMany', { count: entries.length }),
      okText: t('common.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        const result = await remove.mutateAsync(entries.map((e) => e.id));
        if (result.code === 0) {
          feedback.success(t('message.deleted'));
          setSelected([]);
        } else if (!alreadyShown(result)) feedback.error(result.message);
      },
    });
  };

  const onAction = (action: FileAction, entry: FileListItem) => {
    if (action === 'download') setDialog({ kind: 'preview', entry });
    else if (action === 'rename') setDialog({ kind: 'rename', entry });
    else if (action === 'move') setDialog({ kind: 'move', entries: [entry] });
    else if (action === 'link') setDialog({ kind: 'link', entries: [entry] });
    else confirmDelete([entry]);
  };
  const columns = useFileColumns(onAction);

  const chain = parents.data ?? [];
  const close = () => setDialog(null);
  const emptyText = keywords
    ? t('files.noMatch', { keywords })
    : readOnlyHere
      ? t('files.emptyMirror')
      : t('files.emptyFolder');

  return (
    <div style={{ maxWidth: 1400, margin: '0 auto' }}>
      <Typography.Title level={1} style={{ fontSize: 22, marginTop: 0 }}>
        {t('files.title')}
      </Typography.Title>
      <Breadcrumb
        style={{ marginBottom: 12 }}
        aria-label={t('files.breadcrumb')}
        items={(chain.length > 0 ? chain : parent ? [parent] : []).map((f, i, all) => {
          const label = f.parent_id === f.id ? t('files.root') : f.name;
          return {
            key: f.id,
            title:
              i === all.length - 1 ? (
                <span aria-current="page">{label}</span>
              ) : (
                <Link to={folderPath(f.parent_id === f.id ? undefined : f.id)}>{label}</Link>
              ),
          };
        })}
      />
      <Flex gap={8} wrap justify="space-between" style={{ marginBottom: 12 }}>
        <Space wrap>
          <Button
            type="primary"
            icon={<UploadOutlined />}
            disabled={readOnlyHere}
            onClick={() => setDialog({ kind: 'upload' })}
          >
            {t('files.upload')}
          </Button>
          <Button
            icon={<FolderAddOutlined />}
            disabled={readOnlyHere}
            onClick={() => setDialog({ kind: 'newFolder' })}
          >
            {t('files.newFolder')}
          </Button>
          <Button
            icon={<CloudDownloadOutlined />}
            disabled={readOnlyHere}
            onClick={() => setDialog({ kind: 's3' })}
          >
            {t('files.s3Button')}
          </Button>
          {selected.length > 0 && (
            <>
              <Button icon={<SwapOutlined />} onClick={() => setDialog({ kind: 'move', entries: selected })}>
                {t('files.moveSelected', { count: selected.length })}
              </Button>
              <Button icon={<LinkOutlined />} onClick={() => setDialog({ kind: 'link', entries: selected })}>
                {t('files.linkSelected', { count: selected.length })}
              </Button>
              <Button danger icon={<DeleteOutlined />} onClick={() => confirmDelete(selected)}>
                {t('files.deleteSelected', { count: selected.length })}
              </Button>
            </>
          )}
        </Space>
        <Input.Search
          allowClear
          style={{ width: 280 }}
          placeholder={t('files.searchPlaceholder')}
          aria-label={t('files.searchPlaceholder')}
          onSearch={(value) => {
            setPage(1);
            setKeywords(value.trim());
          }}
        />
      </Flex>
      <Table<FileListItem>
        rowKey="id"
        size="middle"
        aria-label={t('files.tableLabel')}
        loading={list.isFetching && !list.data}
        columns={columns}
        dataSource={list.data?.files ?? []}
        rowSelection={{
          selectedRowKeys: selected.map((s) => s.id),
          onChange: (_, rows) => setSelected(rows),
          getCheckboxProps: (f) => ({ disabled: isReadOnly(f), 'aria-label': f.name }),
        }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} /> }}
        pagination={{
          current: page,
          pageSize: FILE_PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          hideOnSinglePage: true,
          onChange: setPage,
        }}
      />
      {dialog?.kind === 'newFolder' && <NameDialog parentId={currentId} onClose={close} />}
      {dialog?.kind === 'rename' && <NameDialog entry={dialog.entry} onClose={close} />}
      {dialog?.kind === 'preview' && <PreviewDrawer file={dialog.entry} onClose={close} />}
      {dialog?.kind === 'move' && (
        <MoveDialog
          entries={dialog.entries}
          onClose={() => {
            setSelected([]);
            close();
          }}
        />
      )}
      {dialog?.kind === 'link' && <LinkKbDialog entries={dialog.entries} onClose={close} />}
      {dialog?.kind === 'upload' && <UploadDialog queue={queue} parentId={currentId} onClose={close} />}
      {dialog?.kind === 's3' && <S3ImportDialog parentId={currentId} onClose={close} />}
    </div>
  );
}
