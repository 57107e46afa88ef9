import { Button, Form, Input, InputNumber, Select, Space, Upload } from 'antd';
import { FileTextOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../api/feedback';
import { isServiceAccountKey, toBase64, validateField, type FormField } from './form-fields';

/** Inputs of one provider form, drawn from the fields `form-fields.ts` derives from the catalogue. */

/** The translated label of a field; the catalogue's English label for a field this page does not know. */
export function fieldLabel(t: TFunction, field: FormField): string {
  return t(`models.field.${field.name}`, { defaultValue: field.label });
}

/** Reads a JSON key file and puts its base64 into the field. */
function KeyFileButton({ name }: { name: string }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  return (
    <Upload
      accept=".json,application/json"
      showUploadList={false}
      maxCount={1}
      beforeUpload={(file) => {
        void file.text().then((text) => {
          const encoded = toBase64(text.trim());
          if (!isServiceAccountKey(encoded)) {
            feedback.error(t('models.keyFileInvalid'));
            return;
          }
          form.setFieldValue(name, encoded);
          void form.validateFields([name]);
          feedback.success(t('models.keyFileRead'));
        });
        return Upload.LIST_IGNORE;
      }}
    >
      <Button icon={<FileTextOutlined />}>{t('models.chooseKeyFile')}</Button>
    </Upload>
  );
}

/** Form.Item injects `id`, `value` and `onChange` into its child: they are passed on to the control. */
type ControlProps = Record<string, unknown>;

function FieldInput({ field, ...control }: { field: FormField } & ControlProps) {
  const { t } = useTranslation();
  switch (field.kind) {
    case 'modelType':
      return (
        <Select
          {...control}
          showSearch={{ optionFilterProp: 'label' }}
          options={(field.options ?? []).map((type) => ({ value: type, label: t(`models.types.${type}`) }))}
        />
      );
    case 'select':
      return (
        <Select
          {...control}
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={field.placeholder ?? t('models.choose')}
          options={(field.options ?? []).map((v) => ({ value: v, label: v }))}
        />
      );
    case 'secret':
      return <Input.Password {...control} autoComplete="new-password" placeholder={field.placeholder} />;
    case 'number':
      return <InputNumber {...control} min={1} precision={0} style={{ width: '100%' }} />;
    case 'base64':
      return <Input.TextArea {...control} rows={3} spellCheck={false} placeholder={field.placeholder} />;
    case 'url':
      return (
        <Input
          {...control}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={field.placeholder}
        />
      );
    default:
      return <Input {...control} autoComplete="off" spellCheck={false} placeholder={field.placeholder} />;
  }
}

function extraOf(t: TFunction, field: FormField): string | undefined {
  if (field.name === 'api_key' && !field.required) return t('models.apiKeyOptional');
  if (field.kind === 'base64') return t('models.base64Hint');
  if (field.name === 'llm_name') return t('models.modelNameHint');
  return undefined;
}

export function ProviderFields({ fields }: { fields: FormField[] }) {
  const { t } = useTranslation();
  return (
    <>
      {fields.map((field) => {
        const label = fieldLabel(t, field);
        const rule = {
          validator: async (_: unknown, value: unknown) => {
            const problem = validateField(field, value);
            if (problem) throw new Error(t(`models.validation.${problem}`, { label }));
          },
        };
        const item = (
          <Form.Item
            key={field.name}
            name={field.name}
            label={label}
            required={field.required}
            rules={[rule]}
            extra={extraOf(t, field)}
            style={field.kind === 'base64' ? { marginBottom: 8 } : undefined}
          >
            <FieldInput field={field} />
          </Form.Item>
        );
        if (field.kind !== 'base64') return item;
        return (
          <Space key={field.name} orientation="vertical" style={{ width: '100%', marginBottom: 24 }}>
            {item}
            <KeyFileButton name={field.name} />
          </Space>
        );
      })}
    </>
  );
}
