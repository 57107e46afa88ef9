import { useEffect, useRef, useState } from 'react';
import { Alert, Col, Input, Row, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MindMapNode, ReferenceChunk } from '@lectern/shared';
import { fetchMindMap, fetchRelatedQuestions, retrievalTest, streamAsk } from '../../api/conversation';
import { feedback } from '../../api/feedback';
import { alreadyShown } from '../../api/request';
import { useAllKbs } from '../../api/kb';
import { DocumentPreviewProvider, toReferenceChunk, useAnswerStream } from '../chat';
import { cleanRelated, mindMapTree, storedKbIds, storeKbIds, type TreeItem } from './search-state';
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
 * Search across chosen knowledge bases: ranked chunks (retrieval testing), an AI summary streamed with
 * citations (`conversation/ask`), related questions (click to search them) and a mind map.
 */
export default function SearchPage() {
  const { t } = useTranslation();
  const kbs = useAllKbs();
  const [kbIds, setKbIds] = useState<string[]>(storedKbIds);
  const [text, setText] = useState('');
  const [asked, setAsked] = useState<string | null>(null);
  const [results, setResults] = useState<Results>(EMPTY);
  const [loading, setLoading] = useState({ chunks: false, related: false, mindMap: false });
  const [problem, setProblem] = useState<string | null>(null);
  const stream = useAnswerStream();
  const run = useRef(0);

  // Choices that no longer exist (deleted knowledge bases) are dropped.
  useEffect(() => {
    if (!kbs.data) return;
    const live = kbIds.filter((id) => kbs.data.some((kb) => kb.id === id));
    if (live.length !== kbIds.length) setKbIds(live);
  }, [kbs.data, kbIds]);

  const search = async (raw: string) => {
    const question = raw.trim();
    if (!question) return;
    if (kbIds.length === 0) {
      setProblem(t('search.chooseKb'));
      return;
    }
    setProblem(null);
    setText(question);
    setAsked(question);
    storeKbIds(kbIds);
    const id = ++run.current;
    const current = () => run.current === id;
    setResults(EMPTY);
    setLoading({ chunks: true, related: true, mindMap: true });

    void retrievalTest(question, kbIds).then((r) => {
      if (!current()) return;
      if (r.code === 0 && r.data) {
        setResults((s) => ({ ...s, chunks: r.data!.chunks.map(toReferenceChunk), total: r.data!.total }));
      } else if (!alreadyShown(r)) feedback.error(r.message);
      setLoading((l) => ({ ...l, chunks: false }));
    });
    void fetchRelatedQuestions(question).then((r) => {
      if (!current()) return;
      setResults((s) => ({ ...s, related: r.code === 0 ? cleanRelated(r.data, question) : [] }));
      setLoading((l) => ({ ...l, related: false }));
    });
    void fetchMindMap(question, kbIds).then((r) => {
      if (!current()) return;
      setResults((s) => ({
        ...s,
        tree: r.code === 0 ? mindMapTree(r.data as MindMapNode) : [],
        mindMapError: r.code === 0 ? null : r.message,
      }));
      setLoading((l) => ({ ...l, mindMap: false }));
    });
    const { outcome } = await stream.run((onEvent, signal) => streamAsk(question, kbIds, onEvent, signal));
    if (current() && !outcome.ok && !outcome.aborted && !outcome.shown) feedback.error(outcome.message);
  };

  const kbSelect = (
    <Select
      mode="multiple"
      allowClear
      value={kbIds}
      onChange={setKbIds}
      loading={kbs.isPending}
      placeholder={t('search.kbPlaceholder')}
      aria-label={t('search.knowledgeBases')}
      optionFilterProp="label"
      options={(kbs.data ?? []).map((kb) => ({ value: kb.id, label: kb.name }))}
      style={{ minWidth: 260, maxWidth: 520 }}
      maxTagCount="responsive"
    />
  );
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
              {t('search.title')}
            </Typography.Title>
            <Typography.Text type="secondary">{t('search.subtitle')}</Typography.Text>
            <div style={{ display: 'flex', justifyContent: 'center' }}>{kbSelect}</div>
            {box}
            {problem && <Alert type="warning" showIcon title={problem} />}
            {kbs.data && kbs.data.length === 0 && <Alert type="info" showIcon title={t('search.noKbs')} />}
          </div>
        ) : (
          <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
            <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', alignItems: 'center' }}>
              <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
                {t('search.title')}
              </Typography.Title>
              {kbSelect}
              <div style={{ flex: 1, minWidth: 280 }}>{box}</div>
            </div>
            {problem && <Alert type="warning" showIcon title={problem} />}
            <Row gutter={[16, 16]}>
              <Col xs={24} lg={16}>
                <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
                  <SummaryCard answer={stream.answer} streaming={stream.streaming} />
                  <ChunkResults chunks={results.chunks} total={results.total} loading={loading.chunks} />
                </Space>
              </Col>
              <Col xs={24} lg={8}>
                <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
                  <RelatedQuestions
                    questions={results.related}
                    loading={loading.related}
                    onPick={(q) => void search(q)}
                  />
                  <MindMapCard tree={results.tree} loading={loading.mindMap} error={results.mindMapError} />
                </Space>
              </Col>
            </Row>
          </Space>
        )}
      </div>
    </DocumentPreviewProvider>
  );
}
