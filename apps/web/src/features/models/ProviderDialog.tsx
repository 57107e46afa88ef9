import { useMemo, useState } from 'react';
import { Alert, Button, Form, Modal, Space, Typography } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { FactoryInfo, ModelType, VerifyResult } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import { useAddLlm, useSetApiKey, useVerifyProvider, type ProviderBody } from '../../api/llm';
import { alreadyShown, type ApiResult } from '../../api/request';
import {
  addLlmBody,
  addModelDefaults,
  addModelFields,
  apiKeyFields,
  setApiKeyBody,
  type FormValues,
} from './form-fields';
import { ProviderFields } from './ProviderFields';
import { ProviderLogo } from './ProviderLogo';

/**
 * The add-key dialog (set_api_key: the key for every catalogue model of a provider) and the add-model
 * dialog (add_llm: one model with its type, name, base url and the provider's own credentials).
 * Enter submits, Esc closes; the server's refusal (e.g. code 102 with the probe's reason) shows here.
 */
export type DialogMode = 'apiKey' | 'addModel';

export interface ProviderDialogProps {
  factory: FactoryInfo;
  mode: DialogMode;
  /** The model type to start with (add-model), e.g. the catalogue's active filter. */
  modelType?: ModelType;
  onClose: () => void;
}

type Outcome = { kind: 'verified'; result: VerifyResult } | { kind: 'refused'; message: string } | null;

/** The server's probe text starts with a line break per failure; shown as lines. */
const tidy = (message: string) => message.replace(/^\s+/, '');

export function ProviderDialog({ factory, mode, modelType, onClose }: ProviderDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const watchedType = Form.useWatch('model_type', form) as ModelType | undefined;
  const initialValues = useMemo(
    () => (mode === 'addModel' ? addModelDefaults(factory, modelType) : {}),
    [mode, factory, modelType],
  );
  const type = watchedType ?? (initialValues.model_type as ModelType | undefined);
  const fields = useMemo(
    () => (mode === 'apiKey' ? apiKeyFields(factory) : addModelFields(factory, type)),
    [mode, factory, type],
  );
  const setKey = useSetApiKey();
  const addModel = useAddLlm();
  const verify = useVerifyProvider();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const route = mode === 'apiKey' ? 'set_api_key' : 'add_llm';

  const bodyOf = (values: FormValues): ProviderBody =>
    mode === 'apiKey' ? setApiKeyBody(factory, fields, values) : addLlmBody(factory, fields, values);

  const refused = (result: ApiResult<unknown>) => {
    if (!alreadyShown(result)) setOutcome({ kind: 'refused', message: tidy(result.message) });
    else setOutcome(null);
  };

  const submit = async (values: FormValues) => {
    setOutcome(null);
    const body = bodyOf(values);
    const result = mode === 'apiKey' ? await setKey.mutateAsync(body) : await addModel.mutateAsync(body);
    if (result.code === 0) {
      feedback.success(t(mode === 'apiKey' ? 'message.modified' : 'message.created'));
      onClose();
    } else {
      refused(result);
    }
  };

  const runVerify = async () => {
    setOutcome(null);
    let values: FormValues;
    try {
      values = await form.validateFields();
    } catch {
      return; // the fields show what is missing
    }
    const result = await verify.mutateAsync({ route, body: bodyOf(values) });
    if (result.code === 0 && result.data) setOutcome({ kind: 'verified', result: result.data });
    else refused(result);
  };

  const title =
    mode === 'apiKey'
      ? t('models.apiKeyTitle', { name: factory.name })
      : t('models.addModelTitle', { name: factory.name });

  return (
    <Modal
      open
      title={
        <Space>
          <ProviderLogo name={factory.name} logo={factory.logo} size={28} />
          <span>{title}</span>
        </Space>
      }
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ htmlType: 'submit' }}
      confirmLoading={setKey.isPending || addModel.isPending}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
      modalRender={(dom) => (
        <Form<FormValues>
          form={form}
          layout="vertical"
          initialValues={initialValues}
          onFinish={submit}
          onValuesChange={() => outcome?.kind === 'verified' && setOutcome(null)}
          requiredMark
        >
          {dom}
        </Form>
      )}
      footer={(_, { OkBtn, CancelBtn }) => (
        <Space>
          <Button
            icon={<SafetyCertificateOutlined />}
            loading={verify.isPending}
            onClick={() => void runVerify()}
          >
            {t('models.verify')}
          </Button>
          <CancelBtn />
          <OkBtn />
        </Space>
      )}
    >
      {mode === 'apiKey' && (
        <Typography.Paragraph type="secondary">
          {t('models.apiKeyApplies', { name: factory.name })}
        </Typography.Paragraph>
      )}
      <ProviderFields fields={fields} />
      {outcome?.kind === 'verified' && (
        <Alert
          type={outcome.result.success ? 'success' : 'error'}
          showIcon
          title={outcome.result.success ? t('models.verifyOk') : t('models.verifyFailed')}
          description={
            outcome.result.success ? undefined : (
              <span style={{ whiteSpace: 'pre-wrap' }}>{tidy(outcome.result.message)}</span>
            )
          }
          role="status"
        />
      )}
      {outcome?.kind === 'refused' && (
        <Alert
          type="error"
          showIcon
          title={t('models.refused')}
          description={<span style={{ whiteSpace: 'pre-wrap' }}>{outcome.message}</span>}
          role="alert"
        />
      )}
    </Modal>
  );
}
