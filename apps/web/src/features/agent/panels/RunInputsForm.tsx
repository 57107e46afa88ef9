import { useState } from 'react';
import { Button, Form, Input, InputNumber, Select, Switch, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { JsonValue } from '@lectern/shared';
import { uploadRunFile } from '../../../api/canvas';

export type InputDefs = Record<
  string,
  { name?: string; type?: string; optional?: boolean; options?: JsonValue[]; value?: JsonValue }
>;
export type InputValues = Record<string, InputDefs[string] & { value: JsonValue }>;

/**
 * A Begin or UserFillUp form (AGENTS.md §5): one field per input by type; file inputs upload through
 * `POST /v1/canvas/upload/<id>` and send the descriptors. The answer is `{key: {…definition, value}}`.
 */
export function RunInputsForm({
  canvasId,
  defs,
  tips,
  submitLabel,
  onSubmit,
}: {
  canvasId: string;
  defs: InputDefs;
  tips?: string;
  submitLabel: string;
  onSubmit: (values: InputValues) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Record<string, unknown>>();
  const [uploading, setUploading] = useState(false);
  const submit = () => {
    // file inputs are not registered fields: read the whole store
    const raw = form.getFieldsValue(true);
    const values: InputValues = {};
    for (const [key, def] of Object.entries(defs))
      values[key] = {
        ...def,
        value: (raw[key] as JsonValue | undefined) ?? (def.type === 'boolean' ? false : ''),
      };
    onSubmit(values);
  };
  return (
    <Form form={form} layout="vertical" onFinish={submit} data-testid="run-inputs-form">
      {tips && <p>{tips}</p>}
      {Object.entries(defs).map(([key, def]) => {
        const rules = def.optional
          ? []
          : [{ required: true, message: t('agent.run.inputRequired', { name: def.name || key }) }];
        const label = def.name || key;
        let control: React.ReactNode;
        switch (def.type) {
          case 'paragraph':
            control = <Input.TextArea rows={3} />;
            break;
          case 'integer':
          case 'float':
          case 'number':
            control = <InputNumber style={{ width: '100%' }} step={def.type === 'integer' ? 1 : 0.1} />;
            break;
          case 'boolean':
            control = <Switch />;
            break;
          case 'options':
            control = (
              <Select options={(def.options ?? []).map((o) => ({ value: String(o), label: String(o) }))} />
            );
            break;
          case 'file':
            control = (
              <Upload
                multiple
                customRequest={async ({ file, onSuccess, onError }) => {
                  setUploading(true);
                  const result = await uploadRunFile(canvasId, file as File);
                  setUploading(false);
                  if (result.code === 0 && result.data) {
                    const list = Array.isArray(result.data) ? result.data : [result.data];
                    const prev = (form.getFieldValue(key) as unknown[] | undefined) ?? [];
                    form.setFieldValue(key, [...prev, ...list]);
                    onSuccess?.(result.data);
                  } else onError?.(new Error(result.message));
                }}
              >
                <Button icon={<UploadOutlined />}>{t('agent.run.uploadFile')}</Button>
              </Upload>
            );
            break;
          default:
            control = <Input />;
        }
        return (
          <Form.Item
            key={key}
            name={def.type === 'file' ? undefined : key}
            label={label}
            rules={def.type === 'file' ? [] : rules}
            valuePropName={def.type === 'boolean' ? 'checked' : 'value'}
          >
            {control}
          </Form.Item>
        );
      })}
      <Button type="primary" htmlType="submit" loading={uploading} data-testid="run-inputs-submit">
        {submitLabel}
      </Button>
    </Form>
  );
}
