import { useState } from 'react';
import { Alert, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../api/feedback';
import { alreadyShown } from '../../../api/request';
import { useImportMcpServers } from '../../../api/mcp';
import { parseObject } from './json-field';

const EXAMPLE = `{
  "mcpServers": {
    "weather": { "type": "streamable-http", "url": "https://example.com/mcp", "authorization_token": "" }
  }
}`;

/** Import servers in the `mcpServers` JSON format (pasted or from a file); shows each server's result. */
export function McpImportDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const importServers = useImportMcpServers();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failures, setFailures] = useState<string[]>([]);

  const submit = async () => {
    const parsed = parseObject(text);
    const servers = parsed?.mcpServers;
    if (!servers || typeof servers !== 'object' || Array.isArray(servers)) {
      setError(t('mcp.importInvalid'));
      return;
    }
    setError(null);
    const r = await importServers.mutateAsync(servers as Record<string, Record<string, unknown>>);
    if (r.code !== 0) {
      if (!alreadyShown(r)) setError(r.message);
      return;
    }
    const results = r.data?.results ?? [];
    const failed = results.filter((x) => !x.success);
    const ok = results.length - failed.length;
    feedback.success(t('mcp.importDone', { ok, failed: failed.length }));
    if (failed.length === 0) onClose();
    else setFailures(failed.map((x) => t('mcp.importFailed', { name: x.server, reason: x.message ?? '' })));
  };

  return (
    <Modal
      open
      title={t('mcp.importTitle')}
      onCancel={onClose}
      onOk={submit}
      okText={t('mcp.import')}
      cancelText={t('common.cancel')}
      confirmLoading={importServers.isPending}
      destroyOnHidden
      width={600}
    >
      <Typography.Paragraph type="secondary">{t('mcp.importHint')}</Typography.Paragraph>
      <input
        type="file"
        accept="application/json,.json"
        aria-label={t('mcp.importFile')}
        onChange={async (e) => {
          const file = e.target.files?.[0];
          if (file) setText(await file.text());
        }}
        style={{ marginBottom: 8 }}
      />
      <Input.TextArea
        aria-label={t('mcp.importTitle')}
        value={text}
        placeholder={EXAMPLE}
        onChange={(e) => setText(e.target.value)}
        autoSize={{ minRows: 8, maxRows: 16 }}
      />
      {error && <Alert style={{ marginTop: 12 }} type="error" showIcon title={error} />}
      {failures.length > 0 && (
        <Alert
          style={{ marginTop: 12 }}
          type="warning"
          showIcon
          title={failures.map((f) => (
            <div key={f}>{f}</div>
          ))}
        />
      )}
    </Modal>
  );
}
