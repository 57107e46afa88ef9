import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Badge, Form, Modal, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Dialog } from '@lectern/shared';
import { useSetDialog } from '../../../api/dialog';
import { useSubmitOnce } from '../../../api/submit-once';
import { feedback } from '../../../api/feedback';
import { useTenantInfo } from '../../../api/llm';
import { alreadyShown } from '../../../api/request';
import { currentLanguage } from '../../../i18n';
import { dialogToValues, newDialogValues, valuesToSetBody, type DialogFormValues } from '../lib/dialog-form';
import { LLM_PARAMETERS, presetOf } from '../lib/presets';
import { AssistantSettingTab } from './AssistantSettingTab';
import { ModelSettingTab } from './ModelSettingTab';
import { PromptEngineTab } from './PromptEngineTab';
import { errorsPerTab, serverErrorTab, tabOfField, type TabKey } from '../lib/dialog-tabs';

/**
 * Create or edit an assistant: three tabs (assistant setting, prompt engine, model setting) over one
 * form; Save sends `dialog/set`. The server's refusals (different embedding models, unused parameter…)
 * show inside the dialog.
 */
export function DialogConfigModal({
  open,
  dialog,
  onClose,
  onSaved,
}: {
  open: boolean;
  dialog: Dialog | null;
  onClose: () => void;
  onSaved?: (dialog: Dialog) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<DialogFormValues>();
  const [tab, setTab] = useState<TabKey>('assistant');
  const [serverError, setServerError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<Record<TabKey, number>>(errorsPerTab([]));
  const tenant = useTenantInfo(open);
  const save = useSetDialog();
  const once = useSubmitOnce();

  const initial = useMemo(
    () =>
      dialog
        ? dialogToValues(dialog)
        : newDialogValues(
            {
              system: t('chat.defaultSystemPrompt'),
              prologue: t('chat.defaultPrologue'),
              emptyResponse: t('chat.defaultEmptyResponse'),
              language: currentLanguage().startsWith('zh') ? 'Chinese' : 'English',
            },
            '',
          ),
    [dialog, t],
  );

  // SPEC §5: the empty response is cleared while no knowledge base is selected; the text set aside
  // comes back once one is chosen.
  const setAside = useRef('');
  const followKnowledgeBases = (kbIds: string[]) => {
    const current = String(form.getFieldValue('empty_response') ?? '');
    if (kbIds.length === 0 && current) {
      setAside.current = current;
      form.setFieldValue('empty_response', '');
    } else if (kbIds.length > 0 && !current && setAside.current) {
      form.setFieldValue('empty_response', setAside.current);
      setAside.current = '';
    }
  };

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(initial);
    setAside.current = '';
    followKnowledgeBases(initial.kb_ids);
    setTab('assistant');
    setServerError(null);
    setInvalid(errorsPerTab([]));
    // followKnowledgeBases only touches the form and a ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, initial, form]);

  // A new assistant uses the tenant's default chat model once it is known.
  const defaultLlm = tenant.data?.llm_id ?? '';
  useEffect(() => {
    if (open && !dialog && defaultLlm && !form.getFieldValue('llm_id'))
      form.setFieldValue('llm_id', defaultLlm);
  }, [open, dialog, defaultLlm, form]);

  const submit = async (values: DialogFormValues) => {
    setServerError(null);
    const body = valuesToSetBody({ ...initial, ...values }, dialog ?? undefined);
    const result = await once.run((idempotencyKey) => save.mutateAsync({ ...body, idempotencyKey }));
    if (!result) return;
    if (result.code === 0 && result.data) {
      feedback.success(t(dialog ? 'message.updated' : 'message.created'));
      onSaved?.(result.data);
      onClose();
    } else if (!alreadyShown(result)) {
      // The refusal is shown above the tab it is about, which is opened.
      setServerError(result.message);
      setTab(serverErrorTab(result.message));
    }
  };

  return (
    <Modal
      open={open}
      title={dialog ? t('chat.editAssistant') : t('chat.createAssistant')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={once.pending}
      onOk={() => form.submit()}
      onCancel={onClose}
      width={760}
      destroyOnHidden
      styles={{ body: { maxHeight: '70vh', overflowY: 'auto', paddingRight: 8 } }}
    >
      {serverError && (
        <Alert
          type="error"
          showIcon
          title={serverError}
          style={{ marginBottom: 12 }}
          closable
          onClose={() => setServerError(null)}
        />
      )}
      <Form
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={submit}
        onFinishFailed={({ errorFields }) => {
          setTab(tabOfField(errorFields[0]?.name[0]));
          setInvalid(errorsPerTab(errorFields));
        }}
        onFieldsChange={() => setInvalid(errorsPerTab(form.getFieldsError()))}
        onValuesChange={(changed: Partial<DialogFormValues>, all: DialogFormValues) => {
          if (changed.kb_ids) followKnowledgeBases(changed.kb_ids);
          // A parameter changed by hand: the preset shown is the one those values match, or "custom".
          if (Object.keys(changed).some((k) => (LLM_PARAMETERS as readonly string[]).includes(k))) {
            form.setFieldValue('preset', presetOf(all));
          }
        }}
      >
        <Tabs
          activeKey={tab}
          onChange={(k) => setTab(k as TabKey)}
          items={[
            {
              key: 'assistant',
              label: tabLabel(t('chat.tabAssistant'), invalid.assistant),
              forceRender: true,
              children: <AssistantSettingTab />,
            },
            {
              key: 'prompt',
              label: tabLabel(t('chat.tabPrompt'), invalid.prompt),
              forceRender: true,
              children: <PromptEngineTab />,
            },
            {
              key: 'model',
              label: tabLabel(t('chat.tabModel'), invalid.model),
              forceRender: true,
              children: <ModelSettingTab />,
            },
          ]}
        />
      </Form>
    </Modal>
  );
}

/** A tab's title with the number of invalid fields on it (so errors elsewhere are seen). */
function tabLabel(title: string, errors: number) {
  return (
    <span>
      {title}
      {errors > 0 && <Badge count={errors} size="small" style={{ marginInlineStart: 6 }} />}
    </span>
  );
}
