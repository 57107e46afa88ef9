import { Button, Card, Form, Input, Select, Space, Switch as Toggle } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  BoolField,
  JsonField,
  NumberField,
  PromptField,
  RefField,
  SelectField,
  variableSelectOptions,
  type FieldContext,
} from './fields';

/** Forms of Begin/UserFillUp inputs, Switch, Iteration and Loop (AGENTS.md §5, §6.4–6.7). */

const INPUT_TYPES = ['line', 'paragraph', 'options', 'file', 'integer', 'float', 'boolean'];

interface InputDef {
  key: string;
  name?: string;
  type?: string;
  optional?: boolean;
  options?: string[];
}

/** The form keeps inputs as a list while editing; saving stores them as an object (flow-to-dsl). */
function inputList(value: unknown): InputDef[] {
  if (Array.isArray(value)) return value as InputDef[];
  if (value && typeof value === 'object')
    return Object.entries(value as Record<string, Omit<InputDef, 'key'>>).map(([key, v]) => ({ key, ...v }));
  return [];
}

export function InputsEditor({ ctx }: { ctx: FieldContext }) {
  const { t } = useTranslation();
  const inputs = inputList(ctx.form.inputs);
  const set = (next: InputDef[]) => ctx.set('inputs', next);
  const patch = (i: number, p: Partial<InputDef>) =>
    set(inputs.map((x, j) => (j === i ? { ...x, ...p } : x)));
  return (
    <Form.Item label={t('agent.form.inputs')} style={{ marginBottom: 12 }}>
      <Space direction="vertical" style={{ width: '100%' }}>
        {inputs.map((input, i) => (
          <Card
            key={i}
            size="small"
            extra={
              <Button
                size="small"
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('common.delete')}
                onClick={() => set(inputs.filter((_x, j) => j !== i))}
              />
            }
          >
            <Space wrap>
              <Input
                placeholder={t('agent.form.inputKey')}
                aria-label={t('agent.form.inputKey')}
                value={input.key}
                onChange={(e) => patch(i, { key: e.target.value })}
                style={{ width: 120 }}
              />
              <Input
                placeholder={t('agent.form.inputName')}
                aria-label={t('agent.form.inputName')}
                value={input.name ?? ''}
                onChange={(e) => patch(i, { name: e.target.value })}
                style={{ width: 140 }}
              />
              <Select
                value={input.type ?? 'line'}
                style={{ width: 120 }}
                onChange={(type) => patch(i, { type })}
                options={INPUT_TYPES.map((v) => ({ value: v, label: t(`agent.form.inputTypes.${v}`) }))}
              />
              <span>
                {t('agent.form.optional')}{' '}
                <Toggle
                  size="small"
                  checked={Boolean(input.optional)}
                  onChange={(optional) => patch(i, { optional })}
                />
              </span>
            </Space>
            {input.type === 'options' && (
              <Select
                mode="tags"
                style={{ width: '100%', marginTop: 6 }}
                placeholder={t('agent.form.inputOptions')}
                value={input.options ?? []}
                onChange={(options: string[]) => patch(i, { options })}
              />
            )}
          </Card>
        ))}
        <Button
          icon={<PlusOutlined />}
          onClick={() =>
            set([...inputs, { key: `input_${inputs.length + 1}`, name: '', type: 'line', optional: false }])
          }
        >
          {t('agent.form.addInput')}
        </Button>
      </Space>
    </Form.Item>
  );
}

export function BeginForm({ ctx }: { ctx: FieldContext }) {
  const { t } = useTranslation();
  return (
    <>
      <SelectField
        ctx={ctx}
        name="mode"
        label={t('agent.form.mode')}
        options={['conversational', 'task'].map((v) => ({ value: v, label: t(`agent.form.modes.${v}`) }))}
      />
      <PromptField ctx={ctx} name="prologue" label={t('agent.form.prologue')} rows={2} />
      <InputsEditor ctx={ctx} />
    </>
  );
}

export function UserFillUpForm({ ctx }: { ctx: FieldContext }) {
  const { t } = useTranslation();
  return (
    <>
      <BoolField ctx={ctx} name="enable_tips" label={t('agent.form.enableTips')} />
      <PromptField ctx={ctx} name="tips" label={t('agent.form.tips')} rows={2} />
      <InputsEditor ctx={ctx} />
    </>
  );
}

/** Stored operator → its label key (AGENTS.md §6.4). */
const SWITCH_OPERATORS: [string, string][] = [
  ['=', 'equal'],
  ['≠', 'notEqual'],
  ['>', 'gt'],
  ['≥', 'ge'],
  ['<', 'lt'],
  ['≤', 'le'],
  ['contains', 'contains'],
  ['not contains', 'notContains'],
  ['start with', 'startWith'],
  ['end with', 'endWith'],
  ['empty', 'empty'],
  ['not empty', 'notEmpty'],
  ['in', 'in'],
  ['not in', 'notIn'],
];

interface Condition {
  logical_operator?: string;
  items?: { cpn_id?: string; operator?: string; value?: string }[];
  to?: string[];
}

export function SwitchForm({ ctx }: { ctx: FieldContext }) {
  const { t } = useTranslation();
  const conditions = (Array.isArray(ctx.form.conditions) ? ctx.form.conditions : []) as Condition[];
  const set = (next: Condition[]) => ctx.set('conditions', next);
  const patch = (i: number, p: Partial<Condition>) =>
    set(conditions.map((c, j) => (j === i ? { ...c, ...p } : c)));
  const refs = variableSelectOptions(ctx.variables);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {conditions.map((cond, i) => {
        const items = cond.items ?? [];
        const patchItem = (k: number, p: object) =>
          patch(i, { items: items.map((it, j) => (j === k ? { ...it, ...p } : it)) });
        return (
          <Card
            key={i}
            size="small"
            title={t('agent.form.case', { n: i + 1 })}
            extra={
              <Button
                size="small"
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('common.delete')}
                onClick={() => set(conditions.filter((_c, j) => j !== i))}
              />
            }
          >
            <Select
              size="small"
              value={cond.logical_operator ?? 'and'}
              onChange={(v) => patch(i, { logical_operator: v })}
              options={[
                { value: 'and', label: t('agent.form.and') },
                { value: 'or', label: t('agent.form.or') },
              ]}
              style={{ marginBottom: 6 }}
            />
            {items.map((item, k) => (
              <Space key={k} wrap style={{ marginBottom: 6 }}>
                <Select
                  showSearch
                  optionFilterProp="label"
                  size="small"
                  style={{ width: 170 }}
                  placeholder={t('agent.form.pickVariable')}
                  value={item.cpn_id || undefined}
                  options={refs}
                  onChange={(v) => patchItem(k, { cpn_id: v })}
                />
                <Select
                  size="small"
                  style={{ width: 110 }}
                  value={item.operator ?? '='}
                  options={SWITCH_OPERATORS.map(([value, key]) => ({
                    value,
                    label: t(`agent.form.operators.${key}`),
                  }))}
                  onChange={(v) => patchItem(k, { operator: v })}
                />
                <Input
                  size="small"
                  style={{ width: 110 }}
                  aria-label={t('agent.form.value')}
                  placeholder={t('agent.form.value')}
                  value={item.value ?? ''}
                  onChange={(e) => patchItem(k, { value: e.target.value })}
                />
                <Button
                  size="small"
                  type="text"
                  icon={<DeleteOutlined />}
                  aria-label={t('common.delete')}
                  onClick={() => patch(i, { items: items.filter((_x, j) => j !== k) })}
                />
              </Space>
            ))}
            <Button
              size="small"
              icon={<PlusOutlined />}
              onClick={() => patch(i, { items: [...items, { operator: '=' }] })}
            >
              {t('agent.form.addRule')}
            </Button>
          </Card>
        );
      })}
      <Button
        icon={<PlusOutlined />}
        onClick={() => set([...conditions, { logical_operator: 'and', items: [{ operator: '=' }], to: [] }])}
      >
        {t('agent.form.addCase')}
      </Button>
    </Space>
  );
}

export function IterationForm({ ctx }: { ctx: FieldContext }) {
  const { t } = useTranslation();
  return <RefField ctx={ctx} name="items_ref" label={t('agent.form.itemsRef')} required />;
}

export function LoopForm({ ctx }: { ctx: FieldContext }) {
  const { t } = useTranslation();
  return (
    <>
      <NumberField ctx={ctx} name="maximum_loop_count" label={t('agent.form.maxLoops')} min={1} max={1000} />
      <SelectField
        ctx={ctx}
        name="logical_operator"
        label={t('agent.form.logicalOperator')}
        options={[
          { value: 'and', label: t('agent.form.and') },
          { value: 'or', label: t('agent.form.or') },
        ]}
      />
      <JsonField ctx={ctx} name="loop_variables" label={t('agent.form.loopVariables')} />
      <JsonField ctx={ctx} name="loop_termination_condition" label={t('agent.form.loopTermination')} />
    </>
  );
}
