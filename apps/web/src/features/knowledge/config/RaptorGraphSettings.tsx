import { Form, Input, InputNumber, Radio, Select, Switch } from 'antd';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { GRAPH_METHODS, PARSER_BOUNDS } from '@lectern/shared';
import { numberRules } from './number-rules';

const R = ['parser_config', 'raptor'] as const;
const G = ['parser_config', 'graphrag'] as const;

/** RAPTOR options: every field required while RAPTOR is on (SPEC §5). */
export function RaptorSettings({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  const on = Form.useWatch([...R, 'use_raptor'], form) as boolean | undefined;
  return (
    <>
      <Form.Item
        name={[...R, 'use_raptor']}
        label={t('knowledge.useRaptor')}
        extra={t('knowledge.useRaptorHint')}
        valuePropName="checked"
      >
        <Switch />
      </Form.Item>
      {on && (
        <>
          <Form.Item
            name={[...R, 'prompt']}
            label={t('knowledge.raptorPrompt')}
            rules={[{ required: true, whitespace: true, message: t('knowledge.raptorPromptRequired') }]}
          >
            <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} style={{ maxWidth: 640 }} />
          </Form.Item>
          <Form.Item
            name={[...R, 'max_token']}
            label={t('knowledge.raptorMaxToken')}
            rules={numberRules(t, {
              ...PARSER_BOUNDS.raptor_max_token,
              required: t('knowledge.raptorMaxTokenRequired'),
            })}
          >
            <InputNumber precision={0} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item
            name={[...R, 'threshold']}
            label={t('knowledge.raptorThreshold')}
            rules={numberRules(t, {
              ...PARSER_BOUNDS.raptor_threshold,
              required: t('knowledge.raptorThresholdRequired'),
            })}
          >
            <InputNumber step={0.01} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item
            name={[...R, 'max_cluster']}
            label={t('knowledge.raptorMaxCluster')}
            rules={numberRules(t, {
              ...PARSER_BOUNDS.raptor_max_cluster,
              required: t('knowledge.raptorMaxClusterRequired'),
            })}
          >
            <InputNumber precision={0} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item
            name={[...R, 'random_seed']}
            label={t('knowledge.raptorRandomSeed')}
            rules={numberRules(t, {
              ...PARSER_BOUNDS.raptor_random_seed,
              required: t('knowledge.raptorRandomSeedRequired'),
            })}
          >
            <InputNumber precision={0} style={{ width: 160 }} />
          </Form.Item>
        </>
      )}
    </>
  );
}

/** Knowledge-graph options: method, entity types, entity resolution, community reports. */
export function GraphSettings({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  const on = Form.useWatch([...G, 'use_graphrag'], form) as boolean | undefined;
  return (
    <>
      <Form.Item
        name={[...G, 'use_graphrag']}
        label={t('knowledge.useGraphrag')}
        extra={t('knowledge.useGraphragHint')}
        valuePropName="checked"
      >
        <Switch />
      </Form.Item>
      {on && (
        <>
          <Form.Item
            name={[...G, 'method']}
            label={t('knowledge.graphMethod')}
            extra={t('knowledge.graphMethodHint')}
          >
            <Radio.Group
              options={GRAPH_METHODS.map((m) => ({
                value: m,
                label: t(m === 'light' ? 'knowledge.graphLight' : 'knowledge.graphGeneral'),
              }))}
            />
          </Form.Item>
          <Form.Item
            name={[...G, 'entity_types']}
            label={t('knowledge.entityTypes')}
            extra={t('knowledge.entityTypesHint')}
          >
            <Select mode="tags" style={{ maxWidth: 640 }} tokenSeparators={[',']} open={false} />
          </Form.Item>
          <Form.Item
            name={[...G, 'resolution']}
            label={t('knowledge.entityResolution')}
            extra={t('knowledge.entityResolutionHint')}
            valuePropName="checked"
          >
            <Switch />
          </Form.Item>
          <Form.Item
            name={[...G, 'community']}
            label={t('knowledge.communityReports')}
            extra={t('knowledge.communityReportsHint')}
            valuePropName="checked"
          >
            <Switch />
          </Form.Item>
        </>
      )}
    </>
  );
}
