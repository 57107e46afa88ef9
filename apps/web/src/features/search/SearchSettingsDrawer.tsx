import { useEffect } from 'react';
import { Button, Drawer, Form, Input, InputNumber, Select, Slider, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SearchApp } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import { useAllKbs } from '../../api/kb';
import { useModelList } from '../../api/llm';
import { alreadyShown } from '../../api/request';
import { useUpdateSearchApp } from '../../api/search';
import { MetadataFilterField } from '../metadata';
import { configOf, formOf, hasWebSearchKey, type SettingsForm } from './search-state';

function modelOptions(data: Record<string, Array<{ llm_name: string; available?: boolean }>> | undefined) {
  return Object.entries(data ?? {}).map(([factory, models]) => ({
    label: factory,
    options: models.map((m) => ({
      value: `${m.llm_name}@${factory}`,
      label: m.llm_name,
      disabled: m.available === false,
    })),
  }));
}

const SWITCHES = ['summary', 'related_search', 'query_mindmap', 'keyword', 'use_kg', 'highlight'] as const;

/** The settings of one search app: name, knowledge bases, retrieval, model and the page's panels. */
export function SearchSettingsDrawer({ app, onClose }: { app: SearchApp | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SettingsForm>();
  const kbs = useAllKbs();
  const chat = useModelList('chat', app !== null);
  const rerank = useModelList('rerank', app !== null);
  const save = useUpdateSearchApp();
  const kbIds = Form.useWatch('kb_ids', form) ?? [];
  const hasKey = hasWebSearchKey(Form.useWatch('tavily_api_key', form));

  useEffect(() => {
    if (app) form.setFieldsValue(formOf(app));
  }, [app, form]);

  // Without a key web search cannot run: its switch shows off (and is disabled).
  useEffect(() => {
    if (!hasWebSearchKey(form.getFieldValue('tavily_api_key')) && form.getFieldValue('web_search'))
      form.setFieldValue('web_search', false);
  }, [app, hasKey, form]);

  const submit = async (values: SettingsForm) => {
    if (!app) return;
    const r = await save.mutateAsync({
      search_id: app.id,
      tenant_id: app.tenant_id,
      name: values.name.trim(),
      description: values.description ?? '',
      search_config: configOf(values),
    });
    if (r.code === 0) {
      feedback.success(t('search.apps.saved'));
      onClose();
    } else if (!alreadyShown(r)) feedback.error(r.message);
  };

  return (
    <Drawer
      open={app !== null}
      onClose={onClose}
      title={t('search.apps.settingsTitle', { name: app?.name ?? '' })}
      size={520}
      destroyOnHidden
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()}>
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} data-testid="search-settings">
        <Form.Item
          name="name"
          label={t('search.apps.name')}
          rules={[{ required: true, whitespace: true, message: t('search.apps.nameRequired') }]}
        >
          <Input maxLength={255} />
        </Form.Item>
        <Form.Item name="description" label={t('search.apps.description')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
        <Form.Item name="kb_ids" label={t('search.knowledgeBases')}>
          <Select
            mode="multiple"
            allowClear
            loading={kbs.isPending}
            placeholder={t('search.kbPlaceholder')}
            aria-label={t('search.knowledgeBases')}
            optionFilterProp="label"
            options={(kbs.data ?? []).map((kb) => ({ value: kb.id, label: kb.name }))}
          />
        </Form.Item>
        <MetadataFilterField kbIds={kbIds} />
        <Form.Item name="similarity_threshold" label={t('search.apps.similarityThreshold')}>
          <Slider min={0} max={1} step={0.01} />
        </Form.Item>
        <Form.Item name="keyword_weight" label={t('search.apps.keywordWeight')}>
          <Slider min={0} max={1} step={0.01} />
        </Form.Item>
        <Form.Item name="top_k" label={t('search.apps.topK')}>
          <InputNumber min={1} max={2048} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="rerank_id" label={t('search.apps.rerankModel')}>
          <Select allowClear options={modelOptions(rerank.data)} loading={rerank.isPending} />
        </Form.Item>
        <Form.Item name="chat_id" label={t('search.apps.chatModel')} tooltip={t('search.apps.chatModelTip')}>
          <Select allowClear options={modelOptions(chat.data)} loading={chat.isPending} />
        </Form.Item>
        <Form.Item
          name="tavily_api_key"
          label={t('search.apps.tavilyApiKey')}
          tooltip={t('search.apps.tavilyApiKeyTip')}
        >
          <Input.Password
            autoComplete="off"
            placeholder="tvly-…"
            aria-label={t('search.apps.tavilyApiKey')}
          />
        </Form.Item>
        <Form.Item
          name="web_search"
          label={t('search.apps.switch.web_search')}
          valuePropName="checked"
          extra={hasKey ? undefined : t('search.apps.webSearchNeedsKey')}
        >
          <Switch disabled={!hasKey} aria-label={t('search.apps.switch.web_search')} />
        </Form.Item>
        {SWITCHES.map((key) => (
          <Form.Item key={key} name={key} label={t(`search.apps.switch.${key}`)} valuePropName="checked">
            <Switch />
          </Form.Item>
        ))}
      </Form>
    </Drawer>
  );
}
