import { Button, Empty, Form, Input, Select, Space, Switch, Table, Tag } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  childDelimiterProblem,
  fieldMapRows,
  metaListProblem,
  metaRowProblem,
  type MetaFieldType,
  type MetaSettingRow,
} from '../structure-config';
import { DelimiterInput } from './ParserFields';

const P = ['parser_config'] as const;
const META_TYPES: MetaFieldType[] = ['string', 'number', 'list'];

/** Child chunks (`children_delimiter`): children are matched, their parent is returned. */
export function ChildrenDelimiterField() {
  const { t } = useTranslation();
  return (
    <Form.Item
      name={[...P, 'children_delimiter']}
      label={t('knowledge.childrenDelimiter')}
      extra={t('knowledge.childrenDelimiterHint')}
      rules={[
        {
          validator: async (_, value: unknown) => {
            const problem = childDelimiterProblem(typeof value === 'string' ? value : '');
            if (problem) throw new Error(t(`knowledge.childrenDelimiterProblems.${problem}`));
          },
        },
      ]}
    >
      <DelimiterInput />
    </Form.Item>
  );
}

/** A table of contents per document, used by assistants with `toc_enhance`. */
export function TocExtractionField() {
  const { t } = useTranslation();
  return (
    <Form.Item
      name={[...P, 'toc_extraction']}
      label={t('knowledge.tocExtraction')}
      extra={t('knowledge.tocExtractionHint')}
      valuePropName="checked"
    >
      <Switch />
    </Form.Item>
  );
}

/** `enable_metadata` and the fields the chat model extracts per document. */
export function MetadataSettings({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  const on = Form.useWatch([...P, 'enable_metadata'], form) as boolean | undefined;
  const listName = [...P, 'metadata'];
  const rows = (): Partial<MetaSettingRow>[] =>
    (form.getFieldValue(listName) as Partial<MetaSettingRow>[] | undefined) ?? [];

  return (
    <>
      <Form.Item
        name={[...P, 'enable_metadata']}
        label={t('knowledge.enableMetadata')}
        extra={t('knowledge.enableMetadataHint')}
        valuePropName="checked"
      >
        <Switch />
      </Form.Item>
      {on && (
        <Form.List
          name={listName}
          rules={[
            {
              validator: async (_, value: unknown) => {
                const list = Array.isArray(value) ? (value as Partial<MetaSettingRow>[]) : [];
                if (metaListProblem(true, list)) throw new Error(t('knowledge.metadataNoFields'));
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <Form.Item label={t('knowledge.metadataFields')} extra={t('knowledge.metadataFieldsHint')}>
              {fields.map((field, index) => (
                <Space key={field.key} align="start" wrap style={{ display: 'flex' }}>
                  <Form.Item
                    name={[field.name, 'key']}
                    style={{ marginBottom: 8 }}
                    rules={[
                      {
                        validator: async () => {
                          const problem = metaRowProblem(rows(), index);
                          if (problem) throw new Error(t(`knowledge.metadataProblems.${problem}`));
                        },
                      },
                    ]}
                  >
                    <Input
                      placeholder={t('knowledge.metadataKey')}
                      aria-label={t('knowledge.metadataKeyAria', { n: index + 1 })}
                      style={{ width: 160 }}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'description']} style={{ marginBottom: 8 }}>
                    <Input
                      placeholder={t('knowledge.metadataDescription')}
                      aria-label={t('knowledge.metadataDescriptionAria', { n: index + 1 })}
                      style={{ width: 240 }}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'type']} style={{ marginBottom: 8 }}>
                    <Select
                      aria-label={t('knowledge.metadataTypeAria', { n: index + 1 })}
                      style={{ width: 120 }}
                      options={META_TYPES.map((v) => ({
                        value: v,
                        label: t(`knowledge.metadataTypes.${v}`),
                      }))}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'enum']} style={{ marginBottom: 8 }}>
                    <Select
                      mode="tags"
                      open={false}
                      tokenSeparators={[',']}
                      placeholder={t('knowledge.metadataOptions')}
                      aria-label={t('knowledge.metadataOptionsAria', { n: index + 1 })}
                      style={{ width: 220 }}
                    />
                  </Form.Item>
                  <Button
                    type="text"
                    icon={<DeleteOutlined />}
                    aria-label={t('knowledge.removeMetadataField', { n: index + 1 })}
                    onClick={() => remove(field.name)}
                  />
                </Space>
              ))}
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                onClick={() => add({ key: '', description: '', type: 'string', enum: [] })}
              >
                {t('knowledge.addMetadataField')}
              </Button>
              <Form.ErrorList errors={errors} />
            </Form.Item>
          )}
        </Form.List>
      )}
    </>
  );
}

/** The Table method's detected columns and their types (written by parsing, read-only here). */
export function FieldMapView({ fieldMap }: { fieldMap: unknown }) {
  const { t } = useTranslation();
  const rows = fieldMapRows(fieldMap);
  return (
    <Form.Item label={t('knowledge.fieldMap')} extra={t('knowledge.fieldMapHint')}>
      {rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('knowledge.fieldMapEmpty')} />
      ) : (
        <Table
          size="small"
          rowKey="key"
          pagination={false}
          style={{ maxWidth: 640 }}
          dataSource={rows}
          columns={[
            { title: t('knowledge.fieldMapColumn'), dataIndex: 'header' },
            {
              title: t('knowledge.fieldMapType'),
              dataIndex: 'kind',
              render: (kind: string) => <Tag>{t(`knowledge.columnKinds.${kind}`)}</Tag>,
            },
            {
              title: t('knowledge.fieldMapKey'),
              dataIndex: 'key',
              render: (key: string) => <code>{key}</code>,
            },
          ]}
        />
      )}
    </Form.Item>
  );
}
