import { Col, Form, InputNumber, Row, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { callableModelName } from '@lectern/shared';
import { useModelList } from '../../../api/llm';
import { applyPreset, enabledKey, type DialogFormValues } from '../lib/dialog-form';
import { FREEDOM_PRESETS, LLM_PARAMETERS, type FreedomPreset, type LlmParameter } from '../lib/presets';
import { SliderInput } from './PromptEngineTab';

const LABELS: Record<LlmParameter, [string, string]> = {
  temperature: ['chat.temperature', 'chat.temperatureTip'],
  top_p: ['chat.topP', 'chat.topPTip'],
  presence_penalty: ['chat.presencePenalty', 'chat.presencePenaltyTip'],
  frequency_penalty: ['chat.frequencyPenalty', 'chat.frequencyPenaltyTip'],
  max_tokens: ['chat.maxTokens', 'chat.maxTokensTip'],
};

function ParameterRow({ name }: { name: LlmParameter }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<DialogFormValues>();
  const enabled = Form.useWatch(enabledKey(name), form) ?? false;
  const [label, tip] = LABELS[name];
  return (
    <Form.Item label={t(label)} tooltip={t(tip)} required={enabled}>
      <Row gutter={12} align="middle" wrap={false}>
        <Col flex="none">
          <Form.Item name={enabledKey(name)} valuePropName="checked" noStyle>
            <Switch aria-label={t('chat.enableParameter', { name: t(label) })} />
          </Form.Item>
        </Col>
        <Col flex="auto">
          <Form.Item
            name={name}
            noStyle
            rules={[
              {
                validator: async (_, value: unknown) => {
                  if (!form.getFieldValue(enabledKey(name))) return;
                  if (value === null || value === undefined || value === '')
                    throw new Error(t('chat.parameterRequired', { name: t(label) }));
                  if (typeof value !== 'number' || Number.isNaN(value))
                    throw new Error(t('chat.parameterNumber', { name: t(label) }));
                  if (name === 'max_tokens' && value < 0) throw new Error(t('chat.maxTokensMin'));
                },
              },
            ]}
          >
            {name === 'max_tokens' ? (
              <InputNumber
                min={0}
                step={1}
                precision={0}
                disabled={!enabled}
                style={{ width: 160 }}
                aria-label={t(label)}
              />
            ) : (
              <SliderInput label={t(label)} />
            )}
          </Form.Item>
        </Col>
      </Row>
    </Form.Item>
  );
}

/** Tab 3: the chat model, the freedom preset and the five sampling parameters (each can be switched off). */
export function ModelSettingTab() {
  const { t } = useTranslation();
  const form = Form.useFormInstance<DialogFormValues>();
  const chat = useModelList('chat');
  const options = Object.entries(chat.data ?? {}).map(([factory, models]) => ({
    label: factory,
    options: models.map((m) => ({
      value: `${m.llm_name}@${factory}`,
      label: callableModelName(m.llm_name),
      disabled: m.available === false,
    })),
  }));

  return (
    <>
      <Form.Item
        name="llm_id"
        label={t('chat.model')}
        rules={[{ required: true, message: t('chat.modelRequired') }]}
      >
        <Select
          showSearch
          options={options}
          loading={chat.isPending}
          placeholder={t('chat.modelPlaceholder')}
          notFoundContent={t('chat.noChatModel')}
        />
      </Form.Item>
      <Form.Item name="preset" label={t('chat.freedom')} tooltip={t('chat.freedomTip')}>
        <Select
          style={{ maxWidth: 240 }}
          onChange={(preset: FreedomPreset | 'custom') => {
            if (preset !== 'custom') form.setFieldsValue(applyPreset(preset));
          }}
          options={[
            ...FREEDOM_PRESETS.map((p) => ({ value: p, label: t(`chat.preset.${p}`) })),
            { value: 'custom', label: t('chat.preset.custom') },
          ]}
        />
      </Form.Item>
      {LLM_PARAMETERS.map((p) => (
        <ParameterRow key={p} name={p} />
      ))}
    </>
  );
}
