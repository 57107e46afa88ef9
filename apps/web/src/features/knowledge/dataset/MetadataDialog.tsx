import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DocumentInfo } from '@lectern/shared';
import { feedback } from '../../../api/feedback';
import { useSetMeta } from '../../../api/document';
import { alreadyShown } from '../../../api/request';
import { metaProblem, metaText } from '../meta';

/** Edit a document's metadata as a JSON object (API.md §6 set_meta). */
export function MetadataDialog({ doc, onClose }: { doc: DocumentInfo; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ meta: string }>();
  const setMeta = useSetMeta(doc.kb_id);

  const submit = async ({ meta }: { meta: string }) => {
    const result = await setMeta.mutateAsync({ docId: doc.id, meta: JSON.stringify(JSON.parse(meta)) });
    if (result.code === 0) {
      feedback.success(t('message.modified'));
      onClose();
    } else if (!alreadyShown(result)) {
      form.setFields([{ name: 'meta', errors: [result.message] }]);
    }
  };

  return (
    <Modal
      open
      width={640}
      title={t('knowledge.metadataTitle', { name: doc.name })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={setMeta.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ meta: metaText(doc.meta_fields) }}
        onFinish={submit}
      >
        <Form.Item
          name="meta"
          label={t('knowledge.metadata')}
          extra={t('knowledge.metadataHint')}
          rules={[
            {
              validator: async (_, value: string | undefined) => {
                const problem = metaProblem(value ?? '');
                if (!problem) return;
                if (problem.kind === 'syntax')
                  throw new Error(t('knowledge.metaSyntax', { detail: problem.detail }));
                if (problem.kind === 'notObject') throw new Error(t('knowledge.metaNotObject'));
                throw new Error(t('knowledge.metaBadValue', { key: problem.key }));
              },
            },
          ]}
        >
          <Input.TextArea
            autoSize={{ minRows: 8, maxRows: 20 }}
            spellCheck={false}
            style={{ fontFamily: 'monospace' }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
