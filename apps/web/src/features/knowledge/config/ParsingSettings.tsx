import { Form, InputNumber, Select, Switch } from 'antd';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { PARSER_BOUNDS, type KbDetail } from '@lectern/shared';
import { useTagSets } from '../../../api/kb';
import { maxChunkTokens, methodUses } from '../config-form';
import { MethodDescription, MethodSelect } from './MethodSelect';
import { numberRules } from './number-rules';
import { DelimiterField, LayoutField, PageRangesField, TaskPageSizeField } from './ParserFields';
import {
  ChildrenDelimiterField,
  FieldMapView,
  MetadataSettings,
  TocExtractionField,
} from './StructureSettings';

const P = ['parser_config'] as const;

/** Chunk method and the parsing settings it uses (SPEC §3, API.md §19.6). */
export function ParsingSettings({ kb, form }: { kb: KbDetail; form: FormInstance }) {
  const { t } = useTranslation();
  const method = (Form.useWatch('parser_id', form) as string | undefined) ?? kb.parser_id;
  const tagKbIds = Form.useWatch([...P, 'tag_kb_ids'], form) as string[] | undefined;
  const tagSets = useTagSets();
  const uses = (f: Parameters<typeof methodUses>[1]) => methodUses(method, f);
  const maxTokens = maxChunkTokens(method);

  return (
    <>
      <Form.Item
        name="parser_id"
        label={t('knowledge.chunkMethod')}
        extra={<MethodDescription method={method} />}
      >
        <MethodSelect />
      </Form.Item>
      {uses('chunkTokenNum') && (
        <Form.Item
          name={[...P, 'chunk_token_num']}
          label={t('knowledge.chunkTokenNum')}
          extra={t('knowledge.chunkTokenNumHint')}
          rules={numberRules(t, { min: 1, max: maxTokens, required: t('knowledge.chunkTokenNumRequired') })}
        >
          <InputNumber precision={0} style={{ width: 160 }} />
        </Form.Item>
      )}
      {uses('delimiter') && <DelimiterField prefix={P} />}
      {uses('childrenDelimiter') && <ChildrenDelimiterField />}
      {uses('tocExtraction') && <TocExtractionField />}
      {uses('layout') && <LayoutField prefix={P} />}
      {uses('taskPageSize') && <TaskPageSizeField prefix={P} />}
      {uses('pages') && <PageRangesField prefix={P} form={form} />}
      {uses('html4excel') && (
        <Form.Item
          name={[...P, 'html4excel']}
          label={t('knowledge.html4excel')}
          extra={t('knowledge.html4excelHint')}
          valuePropName="checked"
        >
          <Switch />
        </Form.Item>
      )}
      {uses('entityTypes') && (
        <Form.Item
          name={[...P, 'entity_types']}
          label={t('knowledge.entityTypes')}
          extra={t('knowledge.entityTypesHint')}
        >
          <Select mode="tags" style={{ maxWidth: 640 }} tokenSeparators={[',']} open={false} />
        </Form.Item>
      )}
      {uses('fieldMap') && (
        <FieldMapView fieldMap={(kb.parser_config as Record<string, unknown>).field_map} />
      )}
      <Form.Item
        name="pagerank"
        label={t('knowledge.pagerank')}
        extra={t('knowledge.pagerankHint')}
        rules={numberRules(t, PARSER_BOUNDS.pagerank)}
      >
        <InputNumber precision={0} style={{ width: 160 }} />
      </Form.Item>
      {uses('autoKeywords') && (
        <Form.Item
          name={[...P, 'auto_keywords']}
          label={t('knowledge.autoKeywords')}
          extra={t('knowledge.autoKeywordsHint')}
          rules={numberRules(t, PARSER_BOUNDS.auto_keywords)}
        >
          <InputNumber precision={0} style={{ width: 160 }} />
        </Form.Item>
      )}
      {uses('autoQuestions') && (
        <Form.Item
          name={[...P, 'auto_questions']}
          label={t('knowledge.autoQuestions')}
          extra={t('knowledge.autoQuestionsHint')}
          rules={numberRules(t, PARSER_BOUNDS.auto_questions)}
        >
          <InputNumber precision={0} style={{ width: 160 }} />
        </Form.Item>
      )}
      {uses('tags') && (
        <>
          <Form.Item
            name={[...P, 'tag_kb_ids']}
            label={t('knowledge.tagSets')}
            extra={t('knowledge.tagSetsHint')}
          >
            <Select
              mode="multiple"
              allowClear
              style={{ maxWidth: 480 }}
              loading={tagSets.isPending}
              options={(tagSets.data ?? [])
                .filter((k) => k.id !== kb.id)
                .map((k) => ({ value: k.id, label: k.name }))}
              notFoundContent={t('knowledge.noTagSets')}
            />
          </Form.Item>
          {(tagKbIds?.length ?? 0) > 0 && (
            <Form.Item
              name={[...P, 'topn_tags']}
              label={t('knowledge.topnTags')}
              rules={numberRules(t, PARSER_BOUNDS.topn_tags)}
            >
              <InputNumber precision={0} style={{ width: 160 }} />
            </Form.Item>
          )}
        </>
      )}
      {uses('metadata') && <MetadataSettings form={form} />}
    </>
  );
}
