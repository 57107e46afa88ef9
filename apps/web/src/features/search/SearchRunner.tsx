import { useRef, useState, type ReactNode } from 'react';
import { Alert, Col, Input, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MindMapNode, ReferenceChunk } from '@lectern/shared';
import type { SearchCalls } from '../../api/search';
import { feedback } from '../../api/feedback';
import { DocumentPreviewProvider, toReferenceChunk, useAnswerStream } from '../chat';
import { cleanRelated, mindMapTree, type SearchPanels, type TreeItem } from './search-state';
import { ChunkResults, MindMapCard, RelatedQuestions, SummaryCard } from './SearchPanels';

interface Results {
  chunks: ReferenceChunk[];
  total: number;
  related: string[];
  tree: TreeItem[];
  mindMapError: string | null;
}

const EMPTY: Results = { chunks: [], total: 0, related: [], tree: [], mindMapError: null };

/**
 * One search page over a search app: ranked chunks, and — as the app's config turns them on — an
 * AI summary streamed with citations, related questions (click to search them) and a mind map. The
 * calls come from the caller (signed in with `search_id`, or the share page's beta token).
 */
export function SearchRunner({
  title,
  calls,
  panels,
  toolbar,
}: {
  title: string;
  calls: SearchCalls;
  panels: SearchPanels;
  toolbar?: ReactNode;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [asked, setAsked] = useState<string | null>(null);
  const [results, setResults] = useState<Results>(EMPTY);
  const [loading, setLoading] = useState({ chunks: false, related: false, mindMap: false });
  const stream = useAnswerStream();
  const run = useRef(0);

  const search = async (raw: string) => {
    const question = raw.trim();
    if (!question) return;
    setText(question);
    setAsked(question);
    const id = ++run.current;
    const current = () => run.current === id;
    setResults(EMPTY);
    setLoading({ chunks: true, related: panels.related, mindMap: panels.mindMap });
    stream.reset();

    void calls.retrieve(question).then((r) => {
      if (!current()) return;
      if (r.code === 0 && r.data) {
        setResults((s) => ({ ...s, chunks: r.data!.chunks.map(toReferenceChunk), total: r.data!.total }));
      } else feedback.error(r.message);
      setLoading((l) => ({ ...l, chunks: false }));
    });
    if (panels.related) {
      void calls.related(question).then((r) => {
        if (!current()) return;
        setResults((s) => ({ ...s, related: r.code === 0 ? cleanRelated(r.data, question) : [] }));
        setLoading((l) => ({ ...l, related: false }));
      });
    }
    if (panels.mindMap) {
      void calls.mindMap(question).then((r) => {
        if (!current()) return;
        setResults((s) => ({
          ...s,
          tree: r.code === 0 ? mindMapTree(r.data as MindMapNode) : [],
          mindMapError: r.code === 0 ? null : r.message,
        }));
        setLoading((l) => ({ ...l, mindMap: false }));
      });
    }
    if (panels.summary) {
      const { outcome } = await stream.run((onEvent, signal) => calls.ask(question, onEvent, signal));
      if (current() && !outcome.ok && !outcome.aborted && !outcome.shown) feedback.error(outcome.message);
    }
  };

  const box = (
    <Input.Search
      value={text}
      onChange={(e) => setText(e.target.value)}
      onSearch={(v) => void search(v)}
      enterButton={t('search.search')}
      size="large"
      allowClear
      placeholder={t('search.placeholder')}
      aria-label={t('search.question')}
      loading={stream.streaming}
    />
  );
  const side = panels.related || panels.mindMap;

  return (
    <DocumentPreviewProvider>
      <div style={{ maxWidth: 1200, margin: '0 auto' }}>
        {asked === null ? (
          <div
            style={{
              maxWidth: 720,
              margin: '10vh auto 0',
              display: 'flex',
              flexDirection: 'column',
              gap: 16,
              textAlign: 'center',
            }}
          >
            <Typography.Title level={1} style={{ fontSize: 32, margin: 0 }}>
              {title}
            </Typography.Title>
            {toolbar && <div style={{ display: 'flex', justifyContent: 'center', gap: 8 }}>{toolbar}</div>}
            {box}
          </div>
        ) : (
          <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
            <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', alignItems: 'center' }}>
              <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
                {title}
              </Typography.Title>
              {toolbar}
              <div style={{ flex: 1, minWidth: 280 }}>{box}</div>
            </div>
            <Row gutter={[16, 16]}>
              <Col xs={24} lg={side ? 16 : 24}>
                <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
                  {panels.summary && <SummaryCard answer={stream.answer} streaming={stream.streaming} />}
                  <ChunkResults chunks={results.chunks} total={results.total} loading={loading.chunks} />
                </Space>
              </Col>
              {side && (
                <Col xs={24} lg={8}>
                  <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
                    {panels.related && (
                      <RelatedQuestions
                        questions={results.related}
                        loading={loading.related}
                        onPick={(q) => void search(q)}
                      />
                    )}
                    {panels.mindMap && (
                      <MindMapCard
                        tree={results.tree}
                        loading={loading.mindMap}
                        error={results.mindMapError}
                      />
                    )}
                  </Space>
                </Col>
              )}
            </Row>
          </Space>
        )}
        {asked === null && panels.empty && (
          <Alert
            type="info"
            showIcon
            title={t('search.apps.noKbs')}
            style={{ maxWidth: 720, margin: '16px auto' }}
          />
        )}
      </div>
    </DocumentPreviewProvider>
  );
}
