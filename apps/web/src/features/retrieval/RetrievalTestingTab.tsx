import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  Form,
  Input,
  InputNumber,
  Pagination,
  Row,
  Select,
  Slider,
  Space,
  Typography,
} from 'antd';
import { ExperimentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  RETRIEVAL_UI_DEFAULTS,
  type MetaDataFilter,
  type RetrievalAnswer,
  type RetrievalTestBody,
} from '@lectern/shared';
import { useRerankModels, useRetrievalTest } from '../../api/chunk';
import { feedback } from '../../api/feedback';
import { alreadyShown } from '../../api/request';
import { draftOf, filterOf, MetadataFilterField } from '../metadata';
import { HitCard } from './HitCard';

interface FormValues {
  question: string;
  similarity_threshold: number;
  keyword_weight: number;
  rerank_id?: string;
  top_k: number;
  /** The metadata filter of the run (`{}` or absent = off). */
  meta_data_filter?: MetaDataFilter | Record<string, unknown>;
}

const PAGE_SIZE = RETRIEVAL_UI_DEFAULTS.size;

/**
 * The request for one run: the keyword weight shown in the form is `1 − vector_similarity_weight`;
 * the metadata filter is sent only when it is on.
 */
export function retrievalBody(
  kbId: string,
  v: FormValues,
  page: number,
  docIds: string[],
): RetrievalTestBody {
  const metaFilter = filterOf(draftOf(v.meta_data_filter));
  return {
    kb_id: kbId,
    question: v.question.trim(),
    page,
    size: PAGE_SIZE,
    doc_ids: docIds,
    similarity_threshold: v.similarity_threshold,
    vector_similarity_weight: Math.round((1 - v.keyword_weight) * 1000) / 1000,
    top_k: v.top_k,
    ...(v.rerank_id ? { rerank_id: v.rerank_id } : {}),
    ...(metaFilter.method ? { meta_data_filter: metaFilter } : {}),
    highlight: true,
  };
}

function FractionField({ name, label, help }: { name: keyof FormValues; label: string; help: string }) {
  return (
    <Form.Item label={label} extra={help} style={{ marginBottom: 12 }}>
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item name={name} noStyle>
          <Slider
            min={0}
            max={1}
            step={0.01}
            style={{ flex: 1, margin: '10px 12px 0 4px' }}
            aria-label={label}
          />
        </Form.Item>
        <Form.Item name={name} noStyle>
          <InputNumber min={0} max={1} step={0.01} style={{ width: 80 }} aria-label={label} />
        </Form.Item>
      </Space.Compact>
    </Form.Item>
  );
}

/**
 * Retrieval testing of one knowledge base (SPEC §2): question, similarity threshold (0.2), keyword
 * similarity weight (0.7 = 1 − vector weight 0.3), rerank model, top-K; hits with hybrid, term and
 * vector similarity, highlighted content and document name; a document filter from the hits'
 * documents (with counts) and paging; a notice when no embedding model could be used.
 */
export function RetrievalTestingTab({ kbId }: { kbId: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const rerankModels = useRerankModels();
  const run = useRetrievalTest();
  const [answer, setAnswer] = useState<RetrievalAnswer | null>(null);
  const [asked, setAsked] = useState<FormValues | null>(null);
  const [page, setPage] = useState(1);
  const [docIds, setDocIds] = useState<string[]>([]);
  const [docChoices, setDocChoices] = useState<RetrievalAnswer['doc_aggs']>([]);

  const test = async (values: FormValues, nextPage: number, nextDocs: string[]) => {
    const result = await run.mutateAsync(retrievalBody(kbId, values, nextPage, nextDocs));
    if (result.code !== 0 || !result.data) {
      if (!alreadyShown(result)) feedback.error(result.message);
      return;
    }
    setAnswer(result.data);
    setAsked(values);
    setPage(nextPage);
    setDocIds(nextDocs);
    // The filter offers the documents of the unfiltered run (a filtered run only counts the chosen ones).
    if (nextDocs.length === 0) setDocChoices(result.data.doc_aggs);
  };

  const hits = answer?.chunks ?? [];
  return (
    <Row gutter={24}>
      <Col xs={24} lg={9}>
        <Card title={t('retrieval.settings')} size="small">
          <Form<FormValues>
            form={form}
            layout="vertical"
            initialValues={{
              question: '',
              similarity_threshold: RETRIEVAL_UI_DEFAULTS.similarity_threshold,
              keyword_weight: Math.round((1 - RETRIEVAL_UI_DEFAULTS.vector_similarity_weight) * 100) / 100,
              top_k: RETRIEVAL_UI_DEFAULTS.top_k,
            }}
            onFinish={(v) => void test(v, 1, [])}
          >
            <FractionField
              name="similarity_threshold"
              label={t('retrieval.threshold')}
              help={t('retrieval.thresholdHelp')}
            />
            <FractionField
              name="keyword_weight"
              label={t('retrieval.keywordWeight')}
              help={t('retrieval.keywordWeightHelp')}
            />
            <Form.Item name="rerank_id" label={t('retrieval.rerank')} extra={t('retrieval.rerankHelp')}>
              <Select
                allowClear
                placeholder={t('retrieval.noRerank')}
                aria-label={t('retrieval.rerank')}
                loading={rerankModels.isPending}
                options={(rerankModels.data ?? []).map((m) => ({
                  value: m.value,
                  label: m.label,
                  disabled: !m.available,
                }))}
              />
            </Form.Item>
            <Form.Item
              name="top_k"
              label={t('retrieval.topK')}
              extra={t('retrieval.topKHelp')}
              rules={[
                { required: true, type: 'integer', min: 1, max: 2048, message: t('retrieval.topKRange') },
              ]}
            >
              <InputNumber
                min={1}
                max={2048}
                precision={0}
                style={{ width: 140 }}
                aria-label={t('retrieval.topK')}
              />
            </Form.Item>
            <MetadataFilterField kbIds={[kbId]} />
            <Form.Item
              name="question"
              label={t('retrieval.question')}
              rules={[{ required: true, whitespace: true, message: t('retrieval.questionRequired') }]}
            >
              <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} aria-label={t('retrieval.question')} />
            </Form.Item>
            <Button
              type="primary"
              htmlType="submit"
              icon={<ExperimentOutlined />}
              loading={run.isPending}
              block
            >
              {t('retrieval.test')}
            </Button>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={15}>
        <section aria-label={t('retrieval.results')} aria-busy={run.isPending}>
          {!answer ? (
            <Empty description={t('retrieval.intro')} style={{ marginTop: 48 }} />
          ) : (
            <>
              {answer.keyword_only && (
                <Alert
                  type="info"
                  showIcon
                  title={t('retrieval.keywordOnly')}
                  style={{ marginBottom: 12 }}
                  data-testid="keyword-only"
                />
              )}
              <div
                style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', marginBottom: 12 }}
              >
                <Typography.Text strong>{t('retrieval.found', { total: answer.total })}</Typography.Text>
                <Select
                  mode="multiple"
                  allowClear
                  style={{ minWidth: 280, flex: 1 }}
                  placeholder={t('retrieval.docFilter')}
                  aria-label={t('retrieval.docFilter')}
                  value={docIds}
                  options={docChoices.map((d) => ({ value: d.doc_id, label: `${d.doc_name} (${d.count})` }))}
                  onChange={(ids: string[]) => asked && void test(asked, 1, ids)}
                />
              </div>
              {hits.length === 0 ? (
                <Empty description={t('retrieval.noHits')} />
              ) : (
                hits.map((hit) => <HitCard key={hit.chunk_id} hit={hit} kbId={kbId} />)
              )}
              <Pagination
                style={{ marginTop: 12, textAlign: 'right' }}
                current={page}
                pageSize={PAGE_SIZE}
                total={answer.total}
                showSizeChanger={false}
                hideOnSinglePage
                onChange={(p) => asked && void test(asked, p, docIds)}
              />
            </>
          )}
        </section>
      </Col>
    </Row>
  );
}
