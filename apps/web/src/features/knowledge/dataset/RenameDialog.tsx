import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { DOC_NAME_LIMIT_BYTES, type DocumentInfo } from '@lectern/shared';
import { feedback } from '../../../api/feedback';
import { useRenameDocument } from '../../../api/document';
import { alreadyShown } from '../../../api/request';
import { renamedDocument, splitExtension } from '../names';

/** Rename a document; its extension stays as it is (API.md §6). */
export function RenameDialog({ doc, onClose }: { doc: DocumentInfo; onClose: () => void }) {
  const { t } = useTranslation();
  const { stem, ext } = splitExtension(doc.name);
  const [form] = Form.useForm<{ stem: string }>();
  const rename = useRenameDocument(doc.kb_id);

  const submit = async (values: { stem: string }) => {
    const { name } = renamedDocument(values.stem, ext);
    if (name === doc.name) return onClose();
    const result = await rename.mutateAsync({ docId: doc.id, name });
    if (result.code === 0) {
      feedback.success(t('message.renamed'));
      onClose();
    } else if (!alreadyShown(result)) {
      form.setFields([{ name: 'stem', errors: [result.message] }]);
    }
  };

  return (
    <Modal
      open
      title={t('knowledge.renameTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={rename.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical" initialValues={{ stem }} onFinish={submit}>
        <Form.Item
          name="stem"
          label={t('knowledge.docName')}
          extra={ext ? t('knowledge.extensionFixed', { ext }) : undefined}
          rules={[
            {
              validator: async (_, value: string | undefined) => {
                const { problem } = renamedDocument(value ?? '', ext);
                if (problem === 'required') throw new Error(t('knowledge.docNameRequired'));
                if (problem === 'tooLong')
                  throw new Error(t('knowledge.docNameTooLong', { max: DOC_NAME_LIMIT_BYTES }));
              },
            },
          ]}
        >
          <Input autoFocus suffix={ext || undefined} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
