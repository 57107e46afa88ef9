import { useRef, useState } from 'react';
import { Alert, Button, Form, Input, Space } from 'antd';
import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { parseEmailParamsFile } from '../lib/validate-flow';
import {
  NumberField,
  PromptField,
  SelectField,
  TextField,
  VariablePicker,
  type FieldContext,
} from './fields';

/** Forms of Message, Email and Note (AGENTS.md §6.8, §10.6; SPEC §5). */

export function MessageForm({ ctx }: { ctx: FieldContext }) {
  const { t } = useTranslation();
  const content = Array.isArray(ctx.form.content)
    ? (ctx.form.content as string[])
    : [String(ctx.form.content ?? '')];
  const issue = ctx.issueOf('content');
  const set = (next: string[]) => ctx.set('content', next);
  return (
    <>
      <Form.Item
        label={t('agent.form.messageContent')}
        required
        validateStatus={issue ? 'error' : undefined}
        help={issue ?? t('agent.form.messageContentHelp')}
        style={{ marginBottom: 12 }}
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          {content.map((text, i) => (
            <div key={i} style={{ display: 'flex', gap: 4, alignItems: 'flex-start' }}>
              <Input.TextArea
                rows={3}
                aria-label={t('agent.form.messageContent')}
                data-testid={`field-content-${i}`}
                value={text}
                status={text.trim() === '' ? 'error' : undefined}
                onChange={(e) => set(content.map((x, j) => (j === i ? e.target.value : x)))}
              />
              <div style={{ display: 'flex', flexDirection: 'column' }}>
                <VariablePicker
                  variables={ctx.variables}
                  onPick={(ref) => set(content.map((x, j) => (j === i ? `${x}{${ref}}` : x)))}
                />
                {content.length > 1 && (
                  <Button
                    size="small"
                    type="text"
                    icon={<DeleteOutlined />}
                    aria-label={t('agent.form.removeMessage')}
                    onClick={() => set(content.filter((_x, j) => j !== i))}
                  />
                )}
              </div>
            </div>
          ))}
          <Button icon={<PlusOutlined />} onClick={() => set([...content, ''])}>
            {t('agent.form.addMessage')}
          </Button>
        </Space>
      </Form.Item>
      <SelectField
        ctx={ctx}
        name="output_format"
        label={t('agent.form.outputFormat')}
        options={[
          { value: '', label: t('agent.form.formatText') },
          { value: 'html', label: 'HTML' },
          { value: 'markdown', label: 'Markdown' },
          { value: 'docx', label: 'Word (docx)' },
          { value: 'xlsx', label: 'Excel (xlsx)' },
        ]}
      />
    </>
  );
}

export function EmailForm({ ctx }: { ctx: FieldContext }) {
  const { t } = useTranslation();
  const file = useRef<HTMLInputElement>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const onFile = async (f: File | undefined) => {
    if (!f) return;
    const isJson = f.name.toLowerCase().endsWith('.json') || f.type === 'application/json';
    const result = isJson ? parseEmailParamsFile(await f.text()) : ({ ok: false, key: 'jsonOnly' } as const);
    if (!result.ok) {
      setFileError(t(`agent.validation.${result.key}`));
      return;
    }
    setFileError(null);
    ctx.patch(result.values);
  };
  return (
    <>
      <TextField ctx={ctx} name="smtp_server" label={t('agent.form.smtpServer')} required />
      <NumberField ctx={ctx} name="smtp_port" label={t('agent.form.smtpPort')} min={1} max={65535} />
      <TextField ctx={ctx} name="email" label={t('agent.form.senderEmail')} required />
      <TextField ctx={ctx} name="password" label={t('agent.form.authCode')} password required />
      <TextField ctx={ctx} name="sender_name" label={t('agent.form.senderName')} />
      <PromptField ctx={ctx} name="to_email" label={t('agent.form.toEmail')} rows={1} required />
      <PromptField ctx={ctx} name="cc_email" label={t('agent.form.ccEmail')} rows={1} />
      <PromptField ctx={ctx} name="subject" label={t('agent.form.subject')} rows={1} />
      <PromptField ctx={ctx} name="content" label={t('agent.form.emailContent')} rows={4} required />
      <Form.Item
        label={t('agent.form.paramsFile')}
        help={t('agent.form.paramsFileHelp')}
        style={{ marginBottom: 12 }}
      >
        <input
          ref={file}
          type="file"
          accept=".json,application/json"
          hidden
          data-testid="email-params-file"
          onChange={(e) => void onFile(e.target.files?.[0])}
        />
        <Button icon={<UploadOutlined />} onClick={() => file.current?.click()}>
          {t('agent.form.uploadJson')}
        </Button>
      </Form.Item>
      {fileError && <Alert type="error" showIcon message={fileError} role="alert" />}
    </>
  );
}

export function NoteForm({ ctx }: { ctx: FieldContext }) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('agent.form.noteText')}>
      <Input.TextArea
        rows={6}
        value={String(ctx.form.text ?? '')}
        onChange={(e) => ctx.set('text', e.target.value)}
      />
    </Form.Item>
  );
}
