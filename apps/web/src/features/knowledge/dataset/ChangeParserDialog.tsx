import { Alert, Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { CHUNK_METHODS, type DocumentInfo, type ParserConfig } from '@lectern/shared';
import { feedback } from '../../../api/feedback';
import { useChangeParser } from '../../../api/document';
import { showFailure } from '../../../api/request';
import { methodUses, parserValues, type ParserConfigValues } from '../config-form';
import { toPages } from '../page-ranges';
import { MethodDescription, MethodSelect } from '../config/MethodSelect';
import { DelimiterField, LayoutField, PageRangesField, TaskPageSizeField } from '../config/ParserFields';

const SLIDES = new Set(['ppt', 'pptx', 'pages']);

/** The methods a document may use: images only `picture`, slides only `presentation` (API.md §6). */
export function methodsFor(doc: Pick<DocumentInfo, 'type' | 'suffix' | 'parser_id'>): string[] {
  if (doc.type === 'visual') return ['picture'];
  if (SLIDES.has(doc.suffix)) return ['presentation'];
  const methods: string[] = CHUNK_METHODS.filter((m) => m !== 'picture');
  if (!methods.includes(doc.parser_id)) methods.push(doc.parser_id);
  return methods;
}

interface Values {
  parser_id: string;
  parser_config: ParserConfigValues;
}

/** Change a document's chunk method and its page ranges, layout recognition, task page size and delimiter. */
export function ChangeParserDialog({ doc, onClose }: { doc: DocumentInfo; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const change = useChangeParser(doc.kb_id);
  const method = Form.useWatch('parser_id', form) ?? doc.parser_id;
  const isPdf = doc.type === 'pdf';
  const prefix = ['parser_config'] as const;

  const submit = async () => {
    const values = form.getFieldsValue(true) as Values;
    const cfg = values.parser_config;
    const parserConfig: ParserConfig = {};
    if (isPdf && methodUses(values.parser_id, 'layout')) parserConfig.layout_recognize = cfg.layout_recognize;
    if (isPdf && methodUses(values.parser_id, 'taskPageSize'))
      parserConfig.task_page_size = cfg.task_page_size;
    if (isPdf && methodUses(values.parser_id, 'pages')) parserConfig.pages = toPages(cfg.pages);
    if (methodUses(values.parser_id, 'delimiter')) parserConfig.delimiter = cfg.delimiter;
    const result = await change.mutateAsync({ docId: doc.id, parserId: values.parser_id, parserConfig });
    if (result.code === 0) {
      feedback.success(t('message.modified'));
      onClose();
    } else {
      showFailure(result);
    }
  };

  return (
    <Modal
      open
      width={640}
      title={t('knowledge.changeMethodTitle', { name: doc.name })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={change.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          parser_id: doc.parser_id,
          parser_config: parserValues(doc.parser_id, doc.parser_config),
        }}
        onFinish={submit}
      >
        <Form.Item
          name="parser_id"
          label={t('knowledge.chunkMethod')}
          extra={<MethodDescription method={method} />}
        >
          <MethodSelect methods={methodsFor(doc)} />
        </Form.Item>
        {doc.chunk_num > 0 && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('knowledge.changeMethodResets')}
          />
        )}
        {isPdf && methodUses(method, 'pages') && <PageRangesField prefix={prefix} form={form} />}
        {isPdf && methodUses(method, 'layout') && <LayoutField prefix={prefix} />}
        {isPdf && methodUses(method, 'taskPageSize') && <TaskPageSizeField prefix={prefix} />}
        {methodUses(method, 'delimiter') && <DelimiterField prefix={prefix} />}
      </Form>
    </Modal>
  );
}
