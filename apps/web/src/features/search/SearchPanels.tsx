import { Alert, Button, Card, Empty, List, Skeleton, Tag, Tree, Typography } from 'antd';
import { BranchesOutlined, FileTextOutlined, QuestionCircleOutlined, RobotOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ReferenceChunk } from '@lectern/shared';
import { AnswerBody, useDocumentOpener, type StreamedAnswer } from '../chat';
import type { TreeItem } from './search-state';

/** The AI summary: streamed markdown with citation badges and the documents it drew on. */
export function SummaryCard({ answer, streaming }: { answer: StreamedAnswer | null; streaming: boolean }) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={
        <span>
          <RobotOutlined aria-hidden /> {t('search.summary')}
        </span>
      }
    >
      <section aria-label={t('search.summary')} data-testid="search-summary">
        {!answer || (streaming && answer.content === '') ? (
          <Skeleton active paragraph={{ rows: 3 }} title={false} />
        ) : answer.error ? (
          <Alert type="error" showIcon title={answer.error} />
        ) : (
          <AnswerBody content={answer.content} reference={answer.reference} streaming={streaming} />
        )}
      </section>
    </Card>
  );
}

/** Retrieved chunks, best first, with their document (a click opens it) and similarity. */
export function ChunkResults({
  chunks,
  total,
  loading,
}: {
  chunks: ReferenceChunk[];
  total: number;
  loading: boolean;
}) {
  const { t } = useTranslation();
  const open = useDocumentOpener();
  return (
    <Card size="small" title={t('search.chunks', { count: total })}>
      <List
        loading={loading}
        dataSource={chunks}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('search.noChunks')} />,
        }}
        aria-label={t('search.chunksLabel')}
        renderItem={(c) => (
          <List.Item key={c.id} data-testid="search-chunk">
            <div style={{ width: '100%' }}>
              <div
                style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 4, flexWrap: 'wrap' }}
              >
                <Button
                  type="link"
                  size="small"
                  icon={<FileTextOutlined />}
                  style={{ padding: 0 }}
                  onClick={() => open?.({ id: c.document_id, name: c.document_name })}
                >
                  {c.document_name}
                </Button>
                <Tag color="blue">{t('search.similarity', { value: (c.similarity * 100).toFixed(1) })}</Tag>
              </div>
              <Typography.Paragraph
                ellipsis={{ rows: 4, expandable: true, symbol: t('search.more') }}
                style={{ margin: 0, whiteSpace: 'pre-wrap' }}
              >
                {c.content}
              </Typography.Paragraph>
            </div>
          </List.Item>
        )}
      />
    </Card>
  );
}

/** Related questions: a click searches for that question. */
export function RelatedQuestions({
  questions,
  loading,
  onPick,
}: {
  questions: string[];
  loading: boolean;
  onPick: (q: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={
        <span>
          <QuestionCircleOutlined aria-hidden /> {t('search.related')}
        </span>
      }
    >
      {loading ? (
        <Skeleton active paragraph={{ rows: 2 }} title={false} />
      ) : questions.length === 0 ? (
        <Typography.Text type="secondary">{t('search.noRelated')}</Typography.Text>
      ) : (
        <ul
          aria-label={t('search.related')}
          style={{
            listStyle: 'none',
            margin: 0,
            padding: 0,
            display: 'flex',
            flexDirection: 'column',
            gap: 4,
          }}
        >
          {questions.map((q) => (
            <li key={q}>
              <Button
                type="link"
                size="small"
                onClick={() => onPick(q)}
                style={{ padding: 0, whiteSpace: 'normal', textAlign: 'left', height: 'auto' }}
              >
                {q}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** The mind map of the question as an indented tree. */
export function MindMapCard({
  tree,
  loading,
  error,
}: {
  tree: TreeItem[];
  loading: boolean;
  error: string | null;
}) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={
        <span>
          <BranchesOutlined aria-hidden /> {t('search.mindMap')}
        </span>
      }
    >
      {loading ? (
        <Skeleton active paragraph={{ rows: 4 }} title={false} />
      ) : error ? (
        <Typography.Text type="secondary">{error}</Typography.Text>
      ) : tree.length === 0 ? (
        <Typography.Text type="secondary">{t('search.noMindMap')}</Typography.Text>
      ) : (
        <Tree treeData={tree} defaultExpandAll selectable={false} showLine aria-label={t('search.mindMap')} />
      )}
    </Card>
  );
}
