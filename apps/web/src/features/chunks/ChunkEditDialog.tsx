import { useEffect } from 'react';
import { Button, Form, Input, InputNumber, Modal, Select, Space, Spin, Switch } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ChunkEditBody, KbDetail } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import { useChunk, useKbTags, useSaveChunk } from '../../api/chunk';
import { alreadyShown } from '../../api/request';

interface FormValues {
  content: string;
  keywords: string[];
  questions: string[];
  tags: string[];
  tagFeas: Array<{ tag?: string; frequency?: number }>;
  enabled: boolean;
}

/** What the editor offers for tags: the tag-set KBs' tags as features, or a tag KB's own tag list. */
export function tagMode(kb: Pick<KbDetail, 'parser_id' | 'parser_config'>): 'features' | 'labels' | null {
  if (kb.parser_id === 'tag') return 'labels';
  return (kb.parser_config?.tag_kb_ids ?? []).length > 0 ? 'features' : null;
}

/** `[{tag, frequency}]` rows → `{tag: frequency}` (blank rows dropped, the last duplicate wins). */
export function tagFeaturesOf(rows: FormValues['tagFeas']): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows ?? []) {
    const tag = r.tag?.trim();
    if (tag && typeof r.frequency === 'number') out[tag] = r.frequency;
  }
  return out;
}

/**
 * Create (no `chunkId`) or edit a chunk: content, keywords, questions, and tags where the KB uses tag
 * sets; edits also carry the enabled switch. The stored chunk is read again so the editor never
 * starts from highlighted search text.
 */
export function ChunkEditDialog({
  kb,
  docId,
  chunkId,
  onClose,
}: {
  kb: KbDetail;
  docId: string;
  chunkId?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const stored = useChunk(chunkId);
  const save = useSaveChunk(docId, kb.id);
  const mode = tagMode(kb);
  const tagKbIds = mode === 'features' ? (kb.parser_config.tag_kb_ids ?? []) : [];
  const tagChoices = useKbTags(tagKbIds);

  useEffect(() => {
    const c = stored.data;
    if (!c) return;
    form.setFieldsValue({
      content: c.content_with_weight,
      keywords: c.important_kwd ?? [],
      questions: c.question_kwd ?? [],
      tags: c.tag_kwd ?? [],
      tagFeas: Object.entries(c.tag_feas ?? {}).map(([tag, frequency]) => ({ tag, frequency })),
      enabled: c.available_int !== 0,
    });
  }, [stored.data, form]);

  const submit = async (values: FormValues) => {
    const body: ChunkEditBody & { available_int?: number } = {
      doc_id: docId,
      content_with_weight: values.content,
      important_kwd: values.keywords ?? [],
      question_kwd: (values.questions ?? []).map((q) => q.trim()).filter(Boolean),
    };
    if (chunkId) {
      body.chunk_id = chunkId;
      body.available_int = values.enabled ? 1 : 0;
    }
    if (mode === 'labels') body.tag_kwd = values.tags ?? [];
    if (mode === 'features') body.tag_feas = tagFeaturesOf(values.tagFeas);
    const result = await save.mutateAsync(body);
    if (result.code === 0) {
      feedback.success(t(chunkId ? 'message.modified' : 'message.created'));
      onClose();
    } else if (!alreadyShown(result)) {
      form.setFields([{ name: 'content', errors: [result.message] }]);
    }
  };

  return (
    <Modal
      open
      width={720}
      title={t(chunkId ? 'chunks.editTitle' : 'chunks.createTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {chunkId && stored.isPending ? (
        <Spin />
      ) : (
        <Form
          form={form}
          layout="vertical"
          initialValues={{ content: '', keywords: [], questions: [], tags: [], tagFeas: [], enabled: true }}
          onFinish={submit}
        >
          <Form.Item
            name="content"
            label={t('chunks.content')}
            rules={[{ required: true, whitespace: true, message: t('chunks.contentRequired') }]}
          >
            <Input.TextArea autoSize={{ minRows: 6, maxRows: 16 }} autoFocus />
          </Form.Item>
          <Form.Item name="keywords" label={t('chunks.keywords')} extra={t('chunks.keywordsHelp')}>
            <Select
              mode="tags"
              open={false}
              tokenSeparators={[',', '，']}
              aria-label={t('chunks.keywords')}
            />
          </Form.Item>
          <Form.Item name="questions" label={t('chunks.questions')} extra={t('chunks.questionsHelp')}>
            <Select mode="tags" open={false} tokenSeparators={['\n']} aria-label={t('chunks.questions')} />
          </Form.Item>
          {mode === 'labels' && (
            <Form.Item name="tags" label={t('chunks.tags')}>
              <Select mode="tags" open={false} tokenSeparators={[',', '，']} aria-label={t('chunks.tags')} />
            </Form.Item>
          )}
          {mode === 'features' && (
            <Form.Item label={t('chunks.tagFrequency')} extra={t('chunks.tagFrequencyHelp')}>
              <Form.List name="tagFeas">
                {(fields, { add, remove }) => (
                  <>
                    {fields.map((field) => (
                      <Space key={field.key} align="baseline" style={{ display: 'flex' }}>
                        <Form.Item
                          name={[field.name, 'tag']}
                          rules={[{ required: true, message: t('chunks.tagRequired') }]}
                        >
                          <Select
                            showSearch
                            style={{ width: 260 }}
                            aria-label={t('chunks.tag')}
                            placeholder={t('chunks.tag')}
                            loading={tagChoices.isPending}
                            options={(tagChoices.data ?? []).map(([tag, count]) => ({
                              value: tag,
                              label: `${tag} (${count})`,
                            }))}
                          />
                        </Form.Item>
                        <Form.Item
                          name={[field.name, 'frequency']}
                          initialValue={1}
                          rules={[{ required: true, message: t('chunks.frequencyRequired') }]}
                        >
                          <InputNumber min={0} max={10} step={1} aria-label={t('chunks.frequency')} />
                        </Form.Item>
                        <Button
                          type="text"
                          icon={<DeleteOutlined />}
                          aria-label={t('chunks.removeTag')}
                          onClick={() => remove(field.name)}
                        />
                      </Space>
                    ))}
                    <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ frequency: 1 })}>
                      {t('chunks.addTag')}
                    </Button>
                  </>
                )}
              </Form.List>
            </Form.Item>
          )}
          {chunkId && (
            <Form.Item name="enabled" label={t('chunks.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
          )}
        </Form>
      )}
    </Modal>
  );
}
