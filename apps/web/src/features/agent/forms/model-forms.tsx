import { Button, Card, Form, Input, Select, Space } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CATALOGUE } from '@lectern/agent-core/editor';
import { useAllKbs } from '../../../api/kb';
import { draftOf, draftProblem, MetadataFilterBuilder } from '../../metadata';
import { initialForm } from '../lib/node-factory';
import { McpField } from './McpField';
import {
  BoolField,
  ModelField,
  NumberField,
  PromptField,
  RefField,
  SelectField,
  TextField,
  type FieldContext,
  type Form as FormValues,
} from './fields';

/** Forms of the model components: Agent/LLM, Retrieval, Categorize (AGENTS.md §6.1–6.3, §10.3). */

const TOOL_CHOICES = CATALOGUE.filter(
  (e) => e.group === 'tools' || e.name === 'Retrieval' || e.name === 'CodeExec',
).map((e) => e.name);

function userPrompt(form: FormValues): string {
  const prompts = Array.isArray(form.prompts) ? (form.prompts as { role?: string; content?: string }[]) : [];
  return prompts.find((p) => p.role === 'user')?.content ?? '';
}

function ExceptionFields({ ctx }: { ctx: FieldContext }) {
  const { t } = useTranslation();
  return (
    <>
      <NumberField ctx={ctx} name="max_retries" label={t('agent.form.maxRetries')} min={0} max={10} />
      <SelectField
        ctx={ctx}
        name="exception_method"
        label={t('agent.form.exceptionMethod')}
        options={[
          { value: '', label: t('agent.form.exceptionNone') },
          { value: 'comment', label: t('agent.form.exceptionComment') },
          { value: 'goto', label: t('agent.form.exceptionGoto') },
        ]}
      />
      {ctx.form.exception_method === 'comment' && (
        <TextField ctx={ctx} name="exception_default_value" label={t('agent.form.exceptionDefault')} />
      )}
    </>
  );
}

export function AgentForm({ ctx }: { ctx: FieldContext }) {
  const { t } = useTranslation();
  const tools = (Array.isArray(ctx.form.tools) ? ctx.form.tools : []) as {
    component_name?: string;
    id?: string;
  }[];
  const plainTools = tools.filter((tool) => !(tool.component_name === 'Agent' && tool.id));
  const isAgent = ctx.form.max_rounds !== undefined || 'tools' in ctx.form;
  return (
    <>
      <ModelField ctx={ctx} name="llm_id" label={t('agent.form.model')} />
      <PromptField ctx={ctx} name="sys_prompt" label={t('agent.form.systemPrompt')} rows={5} />
      <PromptField
        ctx={ctx}
        name="user_prompt_content"
        label={t('agent.form.userPrompt')}
        value={userPrompt(ctx.form)}
        onChange={(v) => {
          const others = (
            Array.isArray(ctx.form.prompts) ? (ctx.form.prompts as { role?: string }[]) : []
          ).filter((p) => p.role !== 'user');
          ctx.set('prompts', [...others, { role: 'user', content: v }]);
        }}
      />
      <NumberField
        ctx={ctx}
        name="temperature"
        label={t('agent.form.temperature')}
        min={0}
        max={2}
        step={0.1}
      />
      <NumberField
        ctx={ctx}
        name="message_history_window_size"
        label={t('agent.form.historyWindow')}
        min={0}
        max={50}
      />
      {isAgent && (
        <>
          <NumberField ctx={ctx} name="max_rounds" label={t('agent.form.maxRounds')} min={1} max={20} />
          <BoolField ctx={ctx} name="cite" label={t('agent.form.cite')} />
          <Form.Item label={t('agent.form.tools')} style={{ marginBottom: 12 }}>
            <Select
              mode="multiple"
              value={plainTools.map((tool) => tool.component_name ?? '')}
              options={TOOL_CHOICES.map((name) => ({ value: name, label: name }))}
              onChange={(names: string[]) => {
                const kept = tools.filter(
                  (tool) =>
                    (tool.component_name === 'Agent' && tool.id) || names.includes(tool.component_name ?? ''),
                );
                const added = names
                  .filter((n) => !plainTools.some((tool) => tool.component_name === n))
                  .map((n) => ({ component_name: n, name: n, params: initialForm(n) }));
                ctx.set('tools', [...kept, ...added]);
              }}
            />
          </Form.Item>
          <McpField ctx={ctx} />
        </>
      )}
      <ExceptionFields ctx={ctx} />
    </>
  );
}

export function RetrievalForm({ ctx }: { ctx: FieldContext }) {
  const { t } = useTranslation();
  const kbs = useAllKbs();
  return (
    <>
      <PromptField ctx={ctx} name="query" label={t('agent.form.query')} rows={2} />
      <Form.Item label={t('agent.form.knowledgeBases')} style={{ marginBottom: 12 }}>
        <Select
          mode="multiple"
          aria-label={t('agent.form.knowledgeBases')}
          optionFilterProp="label"
          loading={kbs.isPending}
          value={(ctx.form.kb_ids as string[]) ?? []}
          options={(kbs.data ?? []).map((kb) => ({ value: kb.id, label: kb.name }))}
          onChange={(v) => ctx.set('kb_ids', v)}
          data-testid="field-kb_ids"
        />
      </Form.Item>
      <NumberField ctx={ctx} name="top_n" label={t('agent.form.topN')} min={1} max={100} />
      <NumberField
        ctx={ctx}
        name="similarity_threshold"
        label={t('agent.form.similarityThreshold')}
        min={0}
        max={1}
        step={0.05}
      />
      <NumberField
        ctx={ctx}
        name="keywords_similarity_weight"
        label={t('agent.form.keywordsWeight')}
        min={0}
        max={1}
        step={0.05}
      />
      <BoolField ctx={ctx} name="use_kg" label={t('agent.form.useKg')} />
      <RetrievalMetaFilter ctx={ctx} kbIds={(kbs.data ?? []).map((kb) => kb.id)} />
      <TextField ctx={ctx} name="empty_response" label={t('agent.form.emptyResponse')} />
    </>
  );
}

/**
 * The Retrieval component's `meta_data_filter` (AGENTS.md Retrieval params); keys and values are
 * suggested from the chosen knowledge bases (references and names among `kb_ids` suggest nothing).
 */
function RetrievalMetaFilter({ ctx, kbIds }: { ctx: FieldContext; kbIds: string[] }) {
  const { t } = useTranslation();
  const chosen = ((ctx.form.kb_ids as string[] | undefined) ?? []).filter((id) => kbIds.includes(id));
  const problem = draftProblem(draftOf(ctx.form.meta_data_filter));
  return (
    <Form.Item
      label={t('metadata.filter')}
      tooltip={t('metadata.filterTip')}
      validateStatus={problem ? 'error' : undefined}
      help={problem ? t(`metadata.problems.${problem}`) : undefined}
      style={{ marginBottom: 12 }}
      data-testid="field-meta_data_filter"
    >
      <MetadataFilterBuilder
        kbIds={chosen}
        value={ctx.form.meta_data_filter as Record<string, unknown> | undefined}
        onChange={(filter) => ctx.set('meta_data_filter', filter)}
      />
    </Form.Item>
  );
}

interface CategoryItem {
  name?: string;
  description?: string;
  examples?: { value?: string }[];
  uuid?: string;
}

export function CategorizeForm({ ctx }: { ctx: FieldContext }) {
  const { t } = useTranslation();
  const items = (Array.isArray(ctx.form.items) ? ctx.form.items : []) as CategoryItem[];
  const setItems = (next: CategoryItem[]) => ctx.set('items', next);
  const patch = (i: number, p: Partial<CategoryItem>) =>
    setItems(items.map((item, j) => (j === i ? { ...item, ...p } : item)));
  return (
    <>
      <ModelField ctx={ctx} name="llm_id" label={t('agent.form.model')} />
      <RefField ctx={ctx} name="query" label={t('agent.form.query')} />
      <NumberField
        ctx={ctx}
        name="message_history_window_size"
        label={t('agent.form.historyWindow')}
        min={0}
        max={50}
      />
      <Form.Item label={t('agent.form.categories')} style={{ marginBottom: 12 }}>
        <Space direction="vertical" style={{ width: '100%' }}>
          {items.map((item, i) => (
            <Card
              key={item.uuid ?? i}
              size="small"
              extra={
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('common.delete')}
                  onClick={() => setItems(items.filter((_x, j) => j !== i))}
                />
              }
            >
              <Input
                placeholder={t('agent.form.categoryName')}
                aria-label={t('agent.form.categoryName')}
                value={item.name ?? ''}
                onChange={(e) => patch(i, { name: e.target.value })}
                style={{ marginBottom: 6 }}
              />
              <Input.TextArea
                rows={2}
                placeholder={t('agent.form.categoryDescription')}
                aria-label={t('agent.form.categoryDescription')}
                value={item.description ?? ''}
                onChange={(e) => patch(i, { description: e.target.value })}
                style={{ marginBottom: 6 }}
              />
              <Select
                mode="tags"
                style={{ width: '100%' }}
                placeholder={t('agent.form.categoryExamples')}
                value={(item.examples ?? []).map((x) => x.value ?? '').filter(Boolean)}
                onChange={(values: string[]) => patch(i, { examples: values.map((value) => ({ value })) })}
              />
            </Card>
          ))}
          <Button
            icon={<PlusOutlined />}
            onClick={() =>
              setItems([...items, { name: '', description: '', examples: [], uuid: crypto.randomUUID() }])
            }
          >
            {t('agent.form.addCategory')}
          </Button>
        </Space>
      </Form.Item>
    </>
  );
}
