import { Button, Form, InputNumber, Select, Space, Input } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { FormInstance } from 'antd';
import type { NamePath } from 'antd/es/form/interface';
import { useTranslation } from 'react-i18next';
import { LAYOUT_RECOGNIZERS, PARSER_BOUNDS } from '@lectern/shared';
import { readDelimiter, showDelimiter } from '../delimiter';
import { numberRules } from './number-rules';
import { fromProblem, toProblem, type PageRange, type PageRangeProblem } from '../page-ranges';

/** Parsing fields shared by the configuration tab and the document's chunk-method dialog. */

type Prefix = readonly (string | number)[];
const path = (prefix: Prefix, ...rest: (string | number)[]): NamePath => [...prefix, ...rest];

export function LayoutField({ prefix }: { prefix: Prefix }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name={path(prefix, 'layout_recognize')}
      label={t('knowledge.layoutRecognize')}
      extra={t('knowledge.layoutRecognizeHint')}
    >
      <Select
        style={{ maxWidth: 320 }}
        options={LAYOUT_RECOGNIZERS.map((v) => ({
          value: v,
          label: v === 'DeepDOC' ? 'DeepDOC' : t('knowledge.plainText'),
        }))}
      />
    </Form.Item>
  );
}

export function TaskPageSizeField({ prefix }: { prefix: Prefix }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name={path(prefix, 'task_page_size')}
      label={t('knowledge.taskPageSize')}
      extra={t('knowledge.taskPageSizeHint')}
      rules={numberRules(t, {
        ...PARSER_BOUNDS.task_page_size,
        required: t('knowledge.taskPageSizeRequired'),
      })}
    >
      <InputNumber precision={0} style={{ width: 160 }} />
    </Form.Item>
  );
}

export function DelimiterInput({
  value,
  onChange,
  id,
}: {
  value?: string;
  onChange?: (v: string) => void;
  id?: string;
}) {
  return (
    <Input
      id={id}
      value={showDelimiter(value)}
      onChange={(e) => onChange?.(readDelimiter(e.target.value))}
      style={{ maxWidth: 320, fontFamily: 'monospace' }}
    />
  );
}

export function DelimiterField({ prefix }: { prefix: Prefix }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name={path(prefix, 'delimiter')}
      label={t('knowledge.delimiter')}
      extra={t('knowledge.delimiterHint')}
    >
      <DelimiterInput />
    </Form.Item>
  );
}

const PROBLEM_KEYS: Record<PageRangeProblem, string> = {
  fromRequired: 'knowledge.pageFromRequired',
  toRequired: 'knowledge.pageToRequired',
  fromTooSmall: 'knowledge.pageFromTooSmall',
  toNotAfterFrom: 'knowledge.pageToNotAfterFrom',
  toNotAfterPrevious: 'knowledge.pageToNotAfterPrevious',
};

/** Page ranges, each with from and to (SPEC §5 rules and messages). */
export function PageRangesField({ prefix, form }: { prefix: Prefix; form: FormInstance }) {
  const { t } = useTranslation();
  const listName = path(prefix, 'pages') as (string | number)[];
  const ranges = (): PageRange[] => (form.getFieldValue(listName) as PageRange[] | undefined) ?? [];
  const check = (problem: PageRangeProblem | null) =>
    problem ? Promise.reject(new Error(t(PROBLEM_KEYS[problem]))) : Promise.resolve();

  return (
    <Form.Item label={t('knowledge.pageRanges')} extra={t('knowledge.pageRangesHint')}>
      <Form.List name={listName}>
        {(fields, { add, remove }) => (
          <>
            {fields.map((field, index) => (
              <Space key={field.key} align="start" wrap style={{ display: 'flex' }}>
                <Form.Item
                  name={[field.name, 'from']}
                  style={{ marginBottom: 8 }}
                  rules={[{ validator: () => check(fromProblem(ranges(), index)) }]}
                >
                  <InputNumber
                    precision={0}
                    placeholder={t('knowledge.pageFrom')}
                    aria-label={t('knowledge.pageFromAria', { n: index + 1 })}
                    style={{ width: 140 }}
                  />
                </Form.Item>
                <Form.Item
                  name={[field.name, 'to']}
                  style={{ marginBottom: 8 }}
                  dependencies={[
                    [...listName, field.name, 'from'],
                    ...(index > 0 ? [[...listName, index - 1, 'to']] : []),
                  ]}
                  rules={[{ validator: () => check(toProblem(ranges(), index)) }]}
                >
                  <InputNumber
                    precision={0}
                    placeholder={t('knowledge.pageTo')}
                    aria-label={t('knowledge.pageToAria', { n: index + 1 })}
                    style={{ width: 140 }}
                  />
                </Form.Item>
                <Button
                  type="text"
                  icon={<DeleteOutlined />}
                  aria-label={t('knowledge.removePageRange', { n: index + 1 })}
                  onClick={() => remove(field.name)}
                />
              </Space>
            ))}
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})}>
              {t('knowledge.addPageRange')}
            </Button>
          </>
        )}
      </Form.List>
    </Form.Item>
  );
}
