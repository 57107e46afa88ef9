import { useState, type ReactNode } from 'react';
import { Button, Form, Input, InputNumber, Select, Switch, Tooltip } from 'antd';
import { PlusSquareOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useModelList } from '../../../api/llm';
import type { VariableOption } from '../lib/variables';

/** Field building blocks of the component forms, all controlled by the node's form object. */

export type Form = Record<string, unknown>;

export interface FieldContext {
  form: Form;
  /** sets one key of the form (the field name is the undo merge key) */
  set: (key: string, value: unknown) => void;
  /** sets several keys at once (one undo step) */
  patch: (values: Form) => void;
  variables: VariableOption[];
  /** the translated problem of a field, if any */
  issueOf: (field: string) => string | undefined;
}

/** Grouped options for a Select of references: system, conversation variables, then each upstream node. */
export function variableSelectOptions(variables: VariableOption[]) {
  const groups = new Map<string, { label: string; value: string }[]>();
  for (const v of variables) {
    const list = groups.get(v.group) ?? [];
    list.push({ label: v.nodeId ? `${v.group} · ${v.label}` : v.label, value: v.value });
    groups.set(v.group, list);
  }
  return [...groups.entries()].map(([label, options]) => ({ label, options }));
}

/** Picks a reference; `onPick` gets the bare reference (`sys.query`, `Agent:X@content`). */
export function VariablePicker({
  variables,
  onPick,
  label,
}: {
  variables: VariableOption[];
  onPick: (ref: string) => void;
  label?: string;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!open)
    return (
      <Tooltip title={t('agent.form.insertVariable')}>
        <Button
          size="small"
          type="text"
          icon={<PlusSquareOutlined />}
          aria-label={label ?? t('agent.form.insertVariable')}
          onClick={() => setOpen(true)}
        />
      </Tooltip>
    );
  return (
    <Select
      size="small"
      autoFocus
      defaultOpen
      aria-label={label ?? t('agent.form.pickVariable')}
      showSearch
      optionFilterProp="label"
      style={{ minWidth: 220 }}
      placeholder={t('agent.form.pickVariable')}
      options={variableSelectOptions(variables)}
      onBlur={() => setOpen(false)}
      onChange={(v: string) => {
        onPick(v);
        setOpen(false);
      }}
    />
  );
}

interface FieldProps {
  ctx: FieldContext;
  name: string;
  label: ReactNode;
  required?: boolean;
  help?: ReactNode;
}

function Item({ ctx, name, label, required, help, children }: FieldProps & { children: ReactNode }) {
  const issue = ctx.issueOf(name);
  return (
    <Form.Item
      label={label}
      required={required}
      validateStatus={issue ? 'error' : undefined}
      help={issue ?? help}
      style={{ marginBottom: 12 }}
    >
      {children}
    </Form.Item>
  );
}

/** A text with `{references}`: a textarea and a variable picker that inserts at the end. */
export function PromptField(
  props: FieldProps & { rows?: number; value?: string; onChange?: (v: string) => void },
) {
  const { ctx, name, rows = 3 } = props;
  const value = props.value ?? (typeof ctx.form[name] === 'string' ? (ctx.form[name] as string) : '');
  const change = props.onChange ?? ((v: string) => ctx.set(name, v));
  return (
    <Item {...props}>
      <div style={{ display: 'flex', gap: 4, alignItems: 'flex-start' }}>
        <Input.TextArea
          aria-label={typeof props.label === 'string' ? props.label : name}
          rows={rows}
          value={value}
          onChange={(e) => change(e.target.value)}
          data-testid={`field-${name}`}
        />
        <VariablePicker variables={ctx.variables} onPick={(ref) => change(`${value}{${ref}}`)} />
      </div>
    </Item>
  );
}

export function TextField(props: FieldProps & { password?: boolean }) {
  const { ctx, name } = props;
  const value = typeof ctx.form[name] === 'string' ? (ctx.form[name] as string) : '';
  const Comp = props.password ? Input.Password : Input;
  return (
    <Item {...props}>
      <Comp
        aria-label={typeof props.label === 'string' ? props.label : name}
        value={value}
        onChange={(e) => ctx.set(name, e.target.value)}
        data-testid={`field-${name}`}
      />
    </Item>
  );
}

export function NumberField(props: FieldProps & { min?: number; max?: number; step?: number }) {
  const { ctx, name } = props;
  const raw = ctx.form[name];
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw !== '' ? Number(raw) : null;
  return (
    <Item {...props}>
      <InputNumber
        value={value}
        min={props.min}
        max={props.max}
        step={props.step}
        onChange={(v) => ctx.set(name, v ?? 0)}
        style={{ width: 160 }}
      />
    </Item>
  );
}

export function BoolField(props: FieldProps) {
  const { ctx, name } = props;
  return (
    <Item {...props}>
      <Switch checked={Boolean(ctx.form[name])} onChange={(v) => ctx.set(name, v)} />
    </Item>
  );
}

export function SelectField(props: FieldProps & { options: { value: string; label: string }[] }) {
  const { ctx, name } = props;
  return (
    <Item {...props}>
      <Select
        value={(ctx.form[name] as string) ?? ''}
        options={props.options}
        onChange={(v) => ctx.set(name, v)}
        style={{ maxWidth: 280 }}
      />
    </Item>
  );
}

/** A bare reference (no braces), chosen from the upstream variables. */
export function RefField(props: FieldProps) {
  const { ctx, name } = props;
  return (
    <Item {...props}>
      <Select
        showSearch
        allowClear
        optionFilterProp="label"
        value={(ctx.form[name] as string) || undefined}
        options={variableSelectOptions(ctx.variables)}
        onChange={(v) => ctx.set(name, v ?? '')}
      />
    </Item>
  );
}

export function ModelField(props: FieldProps) {
  const { t } = useTranslation();
  const { ctx, name } = props;
  const chat = useModelList('chat');
  const options = Object.entries(chat.data ?? {}).map(([factory, models]) => ({
    label: factory,
    options: models.map((m) => ({
      value: `${m.llm_name}@${factory}`,
      label: m.llm_name,
      disabled: m.available === false,
    })),
  }));
  return (
    <Item {...props}>
      <Select
        showSearch
        allowClear
        optionFilterProp="label"
        aria-label={typeof props.label === 'string' ? props.label : name}
        value={(ctx.form[name] as string) || undefined}
        options={options}
        loading={chat.isPending}
        placeholder={t('agent.form.modelPlaceholder')}
        onChange={(v) => ctx.set(name, v ?? '')}
      />
    </Item>
  );
}

/** Any value as JSON text; applied only when it parses. */
export function JsonField(props: FieldProps) {
  const { t } = useTranslation();
  const { ctx, name } = props;
  const [text, setText] = useState(() => JSON.stringify(ctx.form[name] ?? null, null, 2));
  const [bad, setBad] = useState(false);
  return (
    <Form.Item
      label={props.label}
      validateStatus={bad ? 'error' : undefined}
      help={bad ? t('agent.validation.jsonInvalid') : undefined}
      style={{ marginBottom: 12 }}
    >
      <Input.TextArea
        rows={4}
        value={text}
        style={{ fontFamily: 'monospace', fontSize: 12 }}
        onChange={(e) => {
          setText(e.target.value);
          try {
            ctx.set(name, JSON.parse(e.target.value));
            setBad(false);
          } catch {
            setBad(true);
          }
        }}
      />
    </Form.Item>
  );
}
