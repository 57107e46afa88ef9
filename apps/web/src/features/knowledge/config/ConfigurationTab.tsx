import { useEffect } from 'react';
import { Button, Card, Form, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { KbDetail } from '@lectern/shared';
import { feedback } from '../../../api/feedback';
import { useUpdateKb } from '../../../api/kb';
import { alreadyShown } from '../../../api/request';
import { methodUses, toFormValues, toUpdateBody, type KbConfigValues } from '../config-form';
import { IdentityFields } from './IdentityFields';
import { ParsingSettings } from './ParsingSettings';
import { GraphSettings, RaptorSettings } from './RaptorGraphSettings';

/** Every knowledge-base setting of SPEC §3, saved with `kb/update`. */
export default function ConfigurationTab({ kb }: { kb: KbDetail }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<KbConfigValues>();
  const update = useUpdateKb();
  const method = (Form.useWatch('parser_id', form) as string | undefined) ?? kb.parser_id;

  // Reload the form when the stored settings change (a save), not on every refetch of the counters.
  useEffect(() => {
    form.setFieldsValue(toFormValues(kb));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kb.id, kb.update_time, form]);

  const submit = async () => {
    // Every value of the store, shown or not: settings of other methods are kept as they are.
    const values = form.getFieldsValue(true) as KbConfigValues;
    const result = await update.mutateAsync(toUpdateBody(kb, values));
    if (result.code === 0) feedback.success(t('message.updated'));
    else if (!alreadyShown(result)) feedback.error(result.message);
  };

  return (
    <Form<KbConfigValues>
      form={form}
      layout="vertical"
      initialValues={toFormValues(kb)}
      onFinish={submit}
      onFinishFailed={() => feedback.error(t('knowledge.fixErrors'))}
      scrollToFirstError
      style={{ maxWidth: 900 }}
    >
      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        <Card title={t('knowledge.sectionIdentity')}>
          <IdentityFields kb={kb} />
        </Card>
        <Card title={t('knowledge.sectionParsing')}>
          <ParsingSettings kb={kb} form={form} />
        </Card>
        {methodUses(method, 'raptor') && (
          <Card title={t('knowledge.sectionRaptor')}>
            <RaptorSettings form={form} />
          </Card>
        )}
        {methodUses(method, 'graphrag') && (
          <Card title={t('knowledge.sectionGraph')}>
            <GraphSettings form={form} />
          </Card>
        )}
        <Space>
          <Button type="primary" htmlType="submit" loading={update.isPending}>
            {t('common.save')}
          </Button>
          <Button onClick={() => form.setFieldsValue(toFormValues(kb))}>{t('knowledge.reset')}</Button>
        </Space>
      </Space>
    </Form>
  );
}
