import { Button, Col, Form, Input, InputNumber, Row, Select, Slider, Switch, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { callableModelName, type PromptParameter } from '@lectern/shared';
import { useModelList } from '../../../api/llm';
import type { DialogFormValues } from '../lib/dialog-form';
import { vectorWeightOf } from '../lib/presets';
import { knowledgeProblem, variableProblems, type VariableProblem } from '../lib/prompt-rules';

/** A 0..1 slider with its number box. */
export function SliderInput({
  value,
  onChange,
  min = 0,
  max = 1,
  step = 0.01,
  label,
}: {
  value?: number;
  onChange?: (v: number) => void;
  min?: number;
  max?: number;
  step?: number;
  label: string;
}) {
  return (
    <Row gutter={12} align="middle">
      <Col flex="auto">
        <Slider
          min={min}
          max={max}
          step={step}
          value={value}
          onChange={(v) => onChange?.(v)}
          aria-label={label}
        />
      </Col>
      <Col flex="96px">
        <InputNumber
          min={min}
          max={max}
          step={step}
          value={value}
          onChange={(v) => typeof v === 'number' && onChange?.(v)}
          style={{ width: '100%' }}
          aria-label={label}
        />
      </Col>
    </Row>
  );
}

function problemText(t: (k: string, o?: Record<string, unknown>) => string, p: VariableProblem): string {
  if (p.kind === 'empty') return t('chat.variableKeyRequired');
  if (p.kind === 'invalid') return t('chat.variableKeyInvalid', { key: p.key });
  if (p.kind === 'duplicate') return t('chat.variableDuplicate', { key: p.key });
  return t('chat.variableNotInPrompt', { key: p.key });
}

/** Tab 2: the system prompt and its variables, and the retrieval settings. */
export function PromptEngineTab() {
  const { t } = useTranslation();
  const form = Form.useFormInstance<DialogFormValues>();
  const keywordWeight = Form.useWatch('keyword_weight', form) ?? 0;
  const rerank = useModelList('rerank');
  const rerankOptions = Object.entries(rerank.data ?? {}).map(([factory, models]) => ({
    label: factory,
    options: models.map((m) => ({
      value: `${m.llm_name}@${factory}`,
      label: callableModelName(m.llm_name),
      disabled: m.available === false,
    })),
  }));

  return (
    <>
      <Form.Item
        name="system"
        label={t('chat.systemPrompt')}
        tooltip={t('chat.systemPromptTip')}
        dependencies={['kb_ids', 'tavily_api_key']}
        rules={[
          { required: true, whitespace: true, message: t('chat.systemPromptRequired') },
          {
            validator: async (_, value: string | undefined) => {
              const hasSource =
                (form.getFieldValue('kb_ids') ?? []).length > 0 ||
                String(form.getFieldValue('tavily_api_key') ?? '').trim() !== '';
              const problem = knowledgeProblem(value ?? '', hasSource);
              if (problem === 'missing') throw new Error(t('chat.knowledgeSlotMissing'));
              if (problem === 'unused') throw new Error(t('chat.knowledgeSlotUnused'));
            },
          },
        ]}
      >
        <Input.TextArea autoSize={{ minRows: 6, maxRows: 14 }} />
      </Form.Item>

      <Form.Item
        label={t('chat.variables')}
        tooltip={t('chat.variablesTip')}
        name="parameters"
        dependencies={['system']}
        rules={[
          {
            validator: async (_, value: PromptParameter[] | undefined) => {
              const problems = variableProblems(form.getFieldValue('system') ?? '', value ?? []);
              if (problems.length > 0) throw new Error(problemText(t, problems[0]));
            },
          },
        ]}
      >
        <VariablesInput />
      </Form.Item>

      <Form.Item
        name="similarity_threshold"
        label={t('chat.similarityThreshold')}
        tooltip={t('chat.similarityThresholdTip')}
      >
        <SliderInput label={t('chat.similarityThreshold')} />
      </Form.Item>
      <Form.Item
        name="keyword_weight"
        label={t('chat.keywordWeight')}
        tooltip={t('chat.keywordWeightTip')}
        extra={t('chat.vectorWeightIs', { value: vectorWeightOf(keywordWeight).toFixed(2) })}
      >
        <SliderInput label={t('chat.keywordWeight')} />
      </Form.Item>
      <Form.Item name="top_n" label={t('chat.topN')} tooltip={t('chat.topNTip')}>
        <SliderInput label={t('chat.topN')} min={0} max={30} step={1} />
      </Form.Item>
      <Form.Item name="top_k" label={t('chat.topK')} tooltip={t('chat.topKTip')}>
        <SliderInput label={t('chat.topK')} min={1} max={2048} step={1} />
      </Form.Item>
      <Form.Item name="rerank_id" label={t('chat.rerankModel')} tooltip={t('chat.rerankModelTip')}>
        <Select
          allowClear
          options={rerankOptions}
          loading={rerank.isPending}
          placeholder={t('chat.noRerank')}
        />
      </Form.Item>
    </>
  );
}

/** The variable list: key and "optional" per row; add and remove rows. */
function VariablesInput({
  value = [],
  onChange,
}: {
  value?: PromptParameter[];
  onChange?: (v: PromptParameter[]) => void;
}) {
  const { t } = useTranslation();
  const set = (i: number, patch: Partial<PromptParameter>) =>
    onChange?.(value.map((p, k) => (k === i ? { ...p, ...patch } : p)));
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      {value.length === 0 && <Typography.Text type="secondary">{t('chat.noVariables')}</Typography.Text>}
      {value.map((p, i) => (
        <Row key={i} gutter={8} align="middle" wrap={false}>
          <Col flex="auto">
            <Input
              value={p.key}
              onChange={(e) => set(i, { key: e.target.value })}
              placeholder={t('chat.variableKey')}
              aria-label={t('chat.variableKeyOf', { n: i + 1 })}
              prefix="{"
              suffix="}"
            />
          </Col>
          <Col flex="none">
            <Switch
              checked={p.optional}
              onChange={(optional) => set(i, { optional })}
              aria-label={t('chat.variableOptionalOf', { n: i + 1 })}
            />{' '}
            <Typography.Text type="secondary">{t('chat.optional')}</Typography.Text>
          </Col>
          <Col flex="none">
            <Button
              type="text"
              icon={<DeleteOutlined />}
              aria-label={t('chat.removeVariable', { n: i + 1 })}
              onClick={() => onChange?.(value.filter((_, k) => k !== i))}
            />
          </Col>
        </Row>
      ))}
      <Button
        icon={<PlusOutlined />}
        onClick={() => onChange?.([...value, { key: '', optional: true }])}
        style={{ alignSelf: 'flex-start' }}
      >
        {t('chat.addVariable')}
      </Button>
    </div>
  );
}
