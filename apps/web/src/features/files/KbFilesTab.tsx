import { useState } from 'react';
import { Alert, Button, Empty, Flex, Input, Modal, Space, Switch, Table, Tag, Typography } from 'antd';
import { FileOutlined, LinkOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatBytes, type FileListItem, type KbLinkedFile } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import { useKbFiles, useLinkFiles } from '../../api/file';
import { alreadyShown } from '../../api/request';
import { linkGroups } from './file-rules';
import { FileTreePicker } from './FileTreePicker';

const PAGE_SIZE = 15;
const RUN_COLORS: Record<string, string> = {
  '0': 'default',
  '1': 'processing',
  '2': 'warning',
  '3': 'success',
  '4': 'error',
  '5': 'processing',
};

function LinkFilesDialog({
  kbId,
  linked,
  onClose,
}: {
  kbId: string;
  linked: Set<string>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<FileListItem[]>([]);
  const [parse, setParse] = useState(true);
  const link = useLinkFiles();

  const submit = async () => {
    for (const group of linkGroups(picked, kbId)) {
      const result = await link.mutateAsync({ ...group, parse });
      if (result.code !== 0) {
        if (!alreadyShown(result)) feedback.error(result.message);
        return;
      }
    }
    feedback.success(t('files.linked'));
    onClose();
  };

  return (
    <Modal
      open
      width={600}
      title={t('files.kbLinkTitle')}
      okText={t('files.link')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: picked.length === 0 }}
      confirmLoading={link.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
    >
      <div role="group" aria-label={t('files.pickFiles')}>
        <FileTreePicker
          mode="files"
          value={picked.map((p) => p.id)}
          onChange={(_, entries) => setPicked(entries)}
          disabledIds={linked}
        />
      </div>
      <Space style={{ margin: '12px 0' }}>
        <Switch id="kb-link-parse" checked={parse} onChange={setParse} />
        <label htmlFor="kb-link-parse">{t('files.parseOnCreation')}</label>
      </Space>
      <Alert type="info" showIcon title={t('files.kbLinkKeeps')} />
    </Modal>
  );
}

/** The knowledge base's Files tab: the file-manager files linked to it, and "link files" from the manager. */
export function KbFilesTab({ kbId }: { kbId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [keywords, setKeywords] = useState('');
  const [linking, setLinking] = useState(false);
  const list = useKbFiles({ kbId, page, pageSize: PAGE_SIZE, keywords });
  const files = list.data?.files ?? [];

  return (
    <div>
      <Flex gap={8} justify="space-between" wrap style={{ marginBottom: 12 }}>
        <Space>
          <Button type="primary" icon={<LinkOutlined />} onClick={() => setLinking(true)}>
            {t('files.kbLinkButton')}
          </Button>
          <Link to="/file">{t('files.openManager')}</Link>
        </Space>
        <Input.Search
          allowClear
          style={{ width: 260 }}
          placeholder={t('files.searchPlaceholder')}
          aria-label={t('files.searchPlaceholder')}
          onSearch={(v) => {
            setPage(1);
            setKeywords(v.trim());
          }}
        />
      </Flex>
      <Table<KbLinkedFile>
        rowKey="document_id"
        size="middle"
        aria-label={t('files.kbTableLabel')}
        loading={list.isFetching && !list.data}
        dataSource={files}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={keywords ? t('files.noMatch', { keywords }) : t('files.kbEmpty')}
            />
          ),
        }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          hideOnSinglePage: true,
          showSizeChanger: false,
          onChange: setPage,
        }}
        columns={[
          {
            title: t('files.col.name'),
            dataIndex: 'name',
            ellipsis: true,
            render: (name: string) => (
              <Space>
                <FileOutlined />
                <Typography.Text>{name}</Typography.Text>
              </Space>
            ),
          },
          {
            title: t('files.col.size'),
            dataIndex: 'size',
            width: 110,
            align: 'right',
            render: (n: number) => formatBytes(n),
          },
          {
            title: t('files.col.date'),
            dataIndex: 'create_time',
            width: 170,
            render: (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm:ss'),
          },
          {
            title: t('files.col.parsing'),
            dataIndex: 'run',
            width: 150,
            render: (run: string) => (
              <Tag color={RUN_COLORS[run] ?? 'default'} data-run={run}>
                {t(`files.run.${run}`, { defaultValue: run })}
              </Tag>
            ),
          },
        ]}
      />
      {linking && (
        <LinkFilesDialog
          kbId={kbId}
          linked={new Set(files.map((f) => f.id))}
          onClose={() => setLinking(false)}
        />
      )}
    </div>
  );
}
