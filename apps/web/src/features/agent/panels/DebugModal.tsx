import { useEffect, useState } from 'react';
import { Alert, Form, Input, Modal, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { debugComponent, inputForm } from '../../../api/canvas';
import type { AgentNode } from '../lib/flow-types';

type InputField = { type: string; name: string; value?: unknown };

/**
 * Test run of one component (API.md §13 `debug`): the inputs it reads (`input_form`) are asked for,
 * then it runs once on the saved canvas with those values and its outputs are shown.
 */
export function DebugModal({
  canvasId,
  node,
  beforeRun,
  onClose,
}: {
  canvasId: string;
  node: AgentNode | null;
  beforeRun: () => Promise<string | null>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [fields, setFields] = useState<Record<string, InputField> | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [outputs, setOutputs] = useState<unknown>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);

  useEffect(() => {
    if (!node) return;
    let live = true;
    setFields(null);
    setOutputs(null);
    setError(null);
    void (async () => {
      const notSaved = await beforeRun();
      if (!live) return;
      if (notSaved) {
        setError(t('agent.run.notSaved', { reason: notSaved }));
        setFields({});
        return;
      }
      const result = await inputForm(canvasId, node.id);
      if (!live) return;
      if (result.code === 0 && result.data) {
        setFields(result.data);
        setValues(
          Object.fromEntries(
            Object.entries(result.data).map(([k, f]) => [k, typeof f.value === 'string' ? f.value : '']),
          ),
        );
      } else setError(result.message);
    })();
    return () => {
      live = false;
    };
  }, [canvasId, node, beforeRun, t]);

  const run = async () => {
    if (!node) return;
    setRunning(true);
    setError(null);
    const params = Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { value }]));
    const result = await debugComponent({ id: canvasId, component_id: node.id, params });
    setRunning(false);
    if (result.code === 0) setOutputs(result.data);
    else setError(result.message);
  };

  return (
    <Modal
      open={Boolean(node)}
      title={t('agent.debug.title', { name: node?.data.name ?? '' })}
      okText={t('agent.debug.run')}
      onOk={() => void run()}
      confirmLoading={running}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'debug-run' } as Record<`data-${string}`, string>}
    >
      {fields === null && !error ? (
        <Spin />
      ) : (
        <Form layout="vertical" component="div">
          {Object.keys(fields ?? {}).length === 0 && (
            <Typography.Paragraph type="secondary">{t('agent.debug.noInputs')}</Typography.Paragraph>
          )}
          {Object.entries(fields ?? {}).map(([key, field]) => (
            <Form.Item key={key} label={field.name || key}>
              <Input.TextArea
                rows={2}
                value={values[key] ?? ''}
                onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
              />
            </Form.Item>
          ))}
        </Form>
      )}
      {error && <Alert type="error" showIcon message={error} />}
      {outputs !== null && (
        <>
          <Typography.Text strong>{t('agent.trace.outputs')}</Typography.Text>
          <pre
            data-testid="debug-outputs"
            style={{ fontSize: 12, maxHeight: 260, overflow: 'auto', background: '#fafafa', padding: 8 }}
          >
            {JSON.stringify(outputs, null, 2)}
          </pre>
        </>
      )}
    </Modal>
  );
}
