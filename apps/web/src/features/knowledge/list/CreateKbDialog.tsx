import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { KB_NAME_LIMIT_BYTES } from '@lectern/shared';
import { feedback } from '../../../api/feedback';
import { useCreateKb } from '../../../api/kb';
import { showFailure } from '../../../api/request';
import { useSubmitOnce } from '../../../api/submit-once';
import { kbNameProblem } from '../names';

/** Name a new knowledge base (Enter submits), then open it. */
export function CreateKbDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const create = useCreateKb();
  const once = useSubmitOnce();
  const navigate = useNavigate();

  // Enter submits the form (a single-field form submits implicitly).
  const submit = async ({ name }: { name: string }) => {
    const result = await once.run((idempotencyKey) =>
      create.mutateAsync({ name: name.trim(), idempotencyKey }),
    );
    if (!result) return; // a second submit while the first is in flight
    if (result.code === 0 && result.data) {
      feedback.success(t('message.created'));
      form.resetFields();
      onClose();
      navigate(`/knowledge/${result.data.kb_id}/dataset`);
    } else {
      showFailure(result);
    }
  };

  return (
    <Modal
      open={open}
      title={t('knowledge.createTitle')}
      okText={t('knowledge.create')}
      cancelText={t('common.cancel')}
      confirmLoading={once.pending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
        <Form.Item
          name="name"
          label={t('knowledge.name')}
          rules={[
            {
              validator: async (_, value: string | undefined) => {
                const problem = kbNameProblem(value);
                if (problem === 'required') throw new Error(t('knowledge.nameRequired'));
                if (problem === 'tooLong')
                  throw new Error(t('knowledge.nameTooLong', { max: KB_NAME_LIMIT_BYTES }));
              },
            },
          ]}
        >
          <Input autoFocus placeholder={t('knowledge.namePlaceholder')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
