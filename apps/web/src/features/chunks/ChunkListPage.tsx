import { useState } from 'react';
import {
  App,
  Breadcrumb,
  Button,
  Checkbox,
  Col,
  Dropdown,
  Empty,
  Input,
  Modal,
  Pagination,
  Result,
  Row,
  Segmented,
  Spin,
  Typography,
} from 'antd';
import { CheckOutlined, DeleteOutlined, DownOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ChunkRow } from '@lectern/shared';
import { useChunkList, useRemoveChunks, useSwitchChunks, type AvailabilityFilter } from '../../api/chunk';
import { feedback } from '../../api/feedback';
import { useKbDetail } from '../../api/kb';
import { alreadyShown, type ApiResult } from '../../api/request';
import { ChunkCard } from './ChunkCard';
import { ChunkEditDialog } from './ChunkEditDialog';
import { DocumentPreview } from './DocumentPreview';

const PAGE_SIZES = [10, 30, 50, 100];

type Editing = { chunkId?: string } | null;
type BulkAction = 'enable' | 'disable' | 'remove';

/**
 * The chunks of one document (SPEC §2 "Chunk list"): the document beside its chunks, keyword search,
 * the enabled / disabled / all filter, create and edit in a dialog, a switch per chunk, multi-select
 * with enable / disable / remove (asking to choose a chunk first when none is), paging.
 */
export default function ChunkListPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const params = useParams();
  const kbId = params.kbId ?? '';
  const docId = params.docId ?? '';
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(30);
  const [keywords, setKeywords] = useState('');
  const [availability, setAvailability] = useState<AvailabilityFilter>('all');
  const [checked, setChecked] = useState<string[]>([]);
  const [active, setActive] = useState<ChunkRow | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [modal, holder] = Modal.useModal();

  const kb = useKbDetail(kbId);
  const list = useChunkList({ docId, page, size, keywords, availability });
  const switcher = useSwitchChunks(docId, kbId);
  const remover = useRemoveChunks(docId, kbId);
  const chunks = list.data?.chunks ?? [];
  const doc = list.data?.doc;

  const report = (result: ApiResult<unknown>, success: string): boolean => {
    if (result.code === 0) {
      feedback.success(success);
      return true;
    }
    if (!alreadyShown(result)) feedback.error(result.message);
    return false;
  };

  const toggle = async (ids: string[], enabled: boolean) => {
    report(await switcher.mutateAsync({ chunkIds: ids, available: enabled ? 1 : 0 }), t('message.modified'));
  };

  const remove = (ids: string[]) => {
    void modal.confirm({
      title: t('chunks.removeTitle', { count: ids.length }),
      content: t('chunks.removeConfirm'),
      okText: t('common.delete'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        if (report(await remover.mutateAsync(ids), t('message.deleted'))) {
          setChecked((c) => c.filter((id) => !ids.includes(id)));
          if (active && ids.includes(active.chunk_id)) setActive(null);
        }
      },
    });
  };

  const bulk = (action: BulkAction) => {
    if (checked.length === 0) {
      void message.warning(t('chunks.chooseFirst'));
      return;
    }
    if (action === 'remove') remove(checked);
    else void toggle(checked, action === 'enable');
  };

  if (kb.isPending || (list.isPending && !list.data)) {
    return (
      <div style={{ display: 'flex', justifyContent: 'center', padding: 64 }}>
        <Spin />
      </div>
    );
  }
  if (!kb.data || !doc) {
    return (
      <Result
        status="warning"
        title={t('chunks.notFound')}
        subTitle={list.error?.message ?? kb.error?.message}
        extra={
          <Link to={kbId ? `/knowledge/${kbId}/dataset` : '/knowledge'}>{t('chunks.backToDataset')}</Link>
        }
      />
    );
  }

  const pageIds = chunks.map((c) => c.chunk_id);
  const allChecked = pageIds.length > 0 && pageIds.every((id) => checked.includes(id));
  const someChecked = pageIds.some((id) => checked.includes(id));
  const filtering = keywords !== '' || availability !== 'all';

  return (
    <div style={{ maxWidth: 1600, margin: '0 auto' }}>
      {holder}
      <Breadcrumb
        style={{ marginBottom: 12 }}
        items={[
          { title: <Link to="/knowledge">{t('chunks.breadcrumbKb')}</Link> },
          { title: <Link to={`/knowledge/${kbId}/dataset`}>{kb.data.name}</Link> },
          { title: doc.name },
        ]}
      />
      <Typography.Title level={1} style={{ fontSize: 20, margin: '0 0 12px' }}>
        {t('chunks.title', { name: doc.name })}
      </Typography.Title>
      <Row gutter={16}>
        <Col xs={24} lg={11}>
          <div
            style={{
              height: 'calc(100vh - 220px)',
              minHeight: 420,
              border: '1px solid rgba(128,128,128,.25)',
              borderRadius: 8,
              padding: 8,
            }}
          >
            <DocumentPreview doc={doc} chunks={chunks} selected={active} />
          </div>
        </Col>
        <Col xs={24} lg={13}>
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', marginBottom: 12 }}>
            <Checkbox
              checked={allChecked}
              indeterminate={someChecked && !allChecked}
              onChange={(e) =>
                setChecked(
                  e.target.checked
                    ? [...new Set([...checked, ...pageIds])]
                    : checked.filter((id) => !pageIds.includes(id)),
                )
              }
            >
              {t('chunks.selectAll')}
            </Checkbox>
            <Dropdown
              trigger={['click']}
              menu={{
                items: [
                  { key: 'enable', icon: <CheckOutlined />, label: t('chunks.enableSelected') },
                  { key: 'disable', icon: <StopOutlined />, label: t('chunks.disableSelected') },
                  {
                    key: 'remove',
                    icon: <DeleteOutlined />,
                    danger: true,
                    label: t('chunks.removeSelected'),
                  },
                ],
                onClick: ({ key }) => bulk(key as BulkAction),
              }}
            >
              <Button>
                {checked.length > 0 ? t('chunks.bulkCount', { count: checked.length }) : t('chunks.bulk')}{' '}
                <DownOutlined />
              </Button>
            </Dropdown>
            <Input.Search
              allowClear
              placeholder={t('chunks.search')}
              aria-label={t('chunks.search')}
              style={{ width: 220 }}
              onSearch={(value) => {
                setKeywords(value.trim());
                setPage(1);
              }}
            />
            <Segmented<AvailabilityFilter>
              aria-label={t('chunks.filter')}
              value={availability}
              onChange={(v) => {
                setAvailability(v);
                setPage(1);
              }}
              options={[
                { value: 'all', label: t('chunks.filterAll') },
                { value: 'enabled', label: t('chunks.filterEnabled') },
                { value: 'disabled', label: t('chunks.filterDisabled') },
              ]}
            />
            <div style={{ flex: 1 }} />
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
              {t('chunks.create')}
            </Button>
          </div>
          <div
            style={{ height: 'calc(100vh - 290px)', minHeight: 360, overflow: 'auto', paddingRight: 4 }}
            aria-busy={list.isFetching}
          >
            {chunks.length === 0 ? (
              <Empty description={filtering ? t('chunks.noMatch') : t('chunks.empty')} />
            ) : (
              chunks.map((c, i) => (
                <ChunkCard
                  key={c.chunk_id}
                  chunk={c}
                  index={(page - 1) * size + i + 1}
                  checked={checked.includes(c.chunk_id)}
                  active={active?.chunk_id === c.chunk_id}
                  onCheck={(on) =>
                    setChecked((ids) => (on ? [...ids, c.chunk_id] : ids.filter((id) => id !== c.chunk_id)))
                  }
                  onSelect={() => setActive(c)}
                  onEdit={() => setEditing({ chunkId: c.chunk_id })}
                  onToggle={(on) => void toggle([c.chunk_id], on)}
                  onRemove={() =>
                    void remover.mutateAsync([c.chunk_id]).then((r) => report(r, t('message.deleted')))
                  }
                />
              ))
            )}
          </div>
          <Pagination
            style={{ marginTop: 12, textAlign: 'right' }}
            current={page}
            pageSize={size}
            total={list.data?.total ?? 0}
            showSizeChanger
            pageSizeOptions={PAGE_SIZES}
            showTotal={(total) => t('chunks.total', { total })}
            onChange={(p, s) => {
              setPage(s !== size ? 1 : p);
              setSize(s);
            }}
          />
        </Col>
      </Row>
      {editing && (
        <ChunkEditDialog
          kb={kb.data}
          docId={docId}
          chunkId={editing.chunkId}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  );
}
