import { Alert, Avatar, Button, Form, Input, Select, Space, Switch, Upload } from 'antd';
import { DeleteOutlined, RobotOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { KB_LANGUAGES } from '@lectern/shared';
import { feedback } from '../../../api/feedback';
import { useAllKbs } from '../../../api/kb';
import { avatarDataUrl } from '../../../lib/avatar';
import { MetadataFilterField } from '../../metadata';
import type { DialogFormValues } from '../lib/dialog-form';
import { modelLabel } from '../../../lib/model-name';

function AvatarInput({ value, onChange }: { value?: string; onChange?: (v: string) => void }) {
  const { t } = useTranslation();
  return (
    <Space align="center">
      <Avatar size={56} src={value || undefined} icon={<RobotOutlined />} alt={t('chat.avatar')} />
      <Upload
        accept="image/*"
        showUploadList={false}
        maxCount={1}
        beforeUpload={(file) => {
          if (!file.type.startsWith('image/')) feedback.error(t('chat.avatarNotImage'));
          else void avatarDataUrl(file).then((url) => onChange?.(url));
          return Upload.LIST_IGNORE;
        }}
      >
        <Button icon={<UploadOutlined />}>{t('chat.uploadAvatar')}</Button>
      </Upload>
      {value && (
        <Button
          icon={<DeleteOutlined />}
          onClick={() => onChange?.('')}
          aria-label={t('chat.removeAvatar')}
        />
      )}
    </Space>
  );
}

/** Every knowledge base the caller can use (no paging), for the multi-select. */
const SWITCHES = [
  ['quote', 'chat.quote', 'chat.quoteTip'],
  ['keyword', 'chat.keyword', 'chat.keywordTip'],
  ['tts', 'chat.tts', 'chat.ttsTip'],
  ['refine_multiturn', 'chat.refineMultiturn', 'chat.refineMultiturnTip'],
  ['reasoning', 'chat.reasoning', 'chat.reasoningTip'],
  ['use_kg', 'chat.useKg', 'chat.useKgTip'],
  ['toc_enhance', 'chat.tocEnhance', 'chat.tocEnhanceTip'],
  ['self_rag', 'chat.selfRag', 'chat.selfRagTip'],
] as const;

/** Tab 1: identity, greeting and empty response, knowledge bases, web search key and the switches. */
export function AssistantSettingTab() {
  const { t } = useTranslation();
  const form = Form.useFormInstance<DialogFormValues>();
  const kbIds = Form.useWatch('kb_ids', form) ?? [];
  const tavily = Form.useWatch('tavily_api_key', form) ?? '';
  const kbs = useAllKbs();
  const noKb = kbIds.length === 0;

  const byId = new Map((kbs.data ?? []).map((kb) => [kb.id, kb]));
  // Listed by the assistant but gone (deleted since): shown as such, to be removed before saving.
  const deleted = kbs.data ? kbIds.filter((id) => !byId.has(id)) : [];
  const models = [...new Set(kbIds.map((id) => byId.get(id)?.embd_id).filter(Boolean))];

  return (
    <>
      <Form.Item
        name="name"
        label={t('chat.assistantName')}
        rules={[{ required: true, whitespace: true, message: t('chat.nameRequired') }]}
      >
        <Input maxLength={255} placeholder={t('chat.namePlaceholder')} />
      </Form.Item>
      <Form.Item name="icon" label={t('chat.avatar')}>
        <AvatarInput />
      </Form.Item>
      <Form.Item name="description" label={t('chat.description')}>
        <Input placeholder={t('chat.descriptionPlaceholder')} />
      </Form.Item>
      <Form.Item name="language" label={t('chat.language')}>
        <Select
          style={{ maxWidth: 240 }}
          options={KB_LANGUAGES.map((l) => ({
            value: l,
            label: t(l === 'English' ? 'chat.english' : 'chat.chinese'),
          }))}
        />
      </Form.Item>
      <Form.Item name="empty_response" label={t('chat.emptyResponse')} tooltip={t('chat.emptyResponseTip')}>
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 5 }}
          disabled={noKb}
          placeholder={noKb ? t('chat.emptyResponseNoKb') : undefined}
        />
      </Form.Item>
      <Form.Item name="prologue" label={t('chat.prologue')} tooltip={t('chat.prologueTip')}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} />
      </Form.Item>
      <Form.Item
        name="kb_ids"
        label={t('chat.knowledgeBases')}
        tooltip={t('chat.knowledgeBasesTip')}
        rules={[
          {
            validator: async (_, value: string[] | undefined) => {
              if (kbs.data && (value ?? []).some((id) => !byId.has(id)))
                throw new Error(t('chat.kbDeletedRemove'));
              if ((value ?? []).length === 0 && !tavily.trim())
                throw new Error(t('chat.knowledgeBasesRequired'));
            },
          },
        ]}
        dependencies={['tavily_api_key']}
        extra={
          models.length > 1 ? (
            <Alert type="warning" showIcon title={t('chat.embeddingMismatch')} style={{ marginTop: 4 }} />
          ) : undefined
        }
      >
        <Select
          mode="multiple"
          allowClear
          loading={kbs.isPending}
          placeholder={t('chat.knowledgeBasesPlaceholder')}
          optionFilterProp="label"
          options={[
            ...(kbs.data ?? []).map((kb) => ({
              value: kb.id,
              label: kb.name,
              title: `${kb.name} · ${modelLabel(kb.embd_id)}`,
            })),
            ...deleted.map((id) => ({ value: id, label: t('chat.kbDeleted'), title: id })),
          ]}
        />
      </Form.Item>
      {!noKb && <MetadataFilterField kbIds={kbIds} />}
      <Form.Item name="tavily_api_key" label={t('chat.tavilyApiKey')} tooltip={t('chat.tavilyApiKeyTip')}>
        <Input.Password autoComplete="off" placeholder="tvly-…" />
      </Form.Item>
      {SWITCHES.map(([name, label, tip]) => (
        <Form.Item key={name} name={name} label={t(label)} tooltip={t(tip)} valuePropName="checked">
          <Switch />
        </Form.Item>
      ))}
    </>
  );
}
