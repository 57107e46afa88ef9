import { useEffect, useMemo } from 'react';
import { Alert, Form, Modal, Select, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TenantInfo } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import { useModelList, useSetTenantInfo, useTenantInfo } from '../../api/llm';
import { showFailure } from '../../api/request';
import {
  DEFAULT_MODEL_FIELDS,
  modelOptions,
  tenantInfoPayload,
  type DefaultModelKey,
  type DefaultModelValues,
} from './model-lists';

/**
 * "System default models": chat, embedding, image-to-text, speech-to-text, rerank and text-to-speech,
 * each chosen from the tenant's available models of that type and saved with set_tenant_info.
 */

function ModelSelect({
  field,
  current,
}: {
  field: (typeof DEFAULT_MODEL_FIELDS)[number];
  current: string | null;
}) {
  const { t } = useTranslation();
  const list = useModelList(field.type);
  const options = useMemo(() => modelOptions(list.data, current), [list.data, current]);
  const label = t(`models.defaults.${field.key}`);
  return (
    <Form.Item
      name={field.key}
      label={label}
      tooltip={t(`models.defaultsHint.${field.key}`)}
      extra={!list.isPending && options.length === 0 ? t('models.noModelsOfType') : undefined}
    >
      <Select
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        loading={list.isPending}
        placeholder={t('models.chooseModel')}
        options={options}
        aria-label={label}
      />
    </Form.Item>
  );
}

function valuesOf(info: TenantInfo): DefaultModelValues {
  const out: DefaultModelValues = {};
  for (const f of DEFAULT_MODEL_FIELDS) out[f.key] = info[f.key] || undefined;
  return out;
}

export function DefaultModelsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<DefaultModelValues>();
  const tenant = useTenantInfo();
  const save = useSetTenantInfo();
  const info = tenant.data;

  useEffect(() => {
    if (info) form.setFieldsValue(valuesOf(info));
  }, [info, form]);

  const submit = async (values: DefaultModelValues) => {
    if (!info) return;
    const result = await save.mutateAsync(tenantInfoPayload(info, values));
    if (result.code === 0) {
      feedback.success(t('message.updated'));
      onClose();
    } else {
      showFailure(result);
    }
  };

  const title = t('models.defaultModels');
  return (
    <Modal
      open
      title={title}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ htmlType: 'submit', disabled: !info }}
      confirmLoading={save.isPending}
      onCancel={onClose}
      destroyOnHidden
      width={560}
      modalRender={(dom) => (
        <Form<DefaultModelValues> form={form} layout="vertical" onFinish={submit}>
          {dom}
        </Form>
      )}
    >
      <Typography.Paragraph type="secondary">{t('models.defaultModelsDescription')}</Typography.Paragraph>
      {tenant.isPending && <Skeleton active paragraph={{ rows: 6 }} />}
      {tenant.isError && <Alert type="error" showIcon title={t('models.loadFailed')} />}
      {info &&
        DEFAULT_MODEL_FIELDS.map((field) => (
          <ModelSelect key={field.key} field={field} current={info[field.key as DefaultModelKey] || null} />
        ))}
    </Modal>
  );
}
