import { useState } from 'react';
import { Button, Collapse, Empty, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { runTrace } from '../../../api/canvas';
import type { TraceEntry } from '../lib/run-state';

/**
 * The trace of the last run: every finished node with its inputs, outputs, error and time, in order;
 * the stored run log (tool calls of each component) is loaded on demand from `GET /v1/canvas/trace`.
 */
export function TraceView({
  canvasId,
  messageId,
  trace,
}: {
  canvasId: string;
  messageId: string | null;
  trace: TraceEntry[];
}) {
  const { t } = useTranslation();
  const [steps, setSteps] = useState<Record<string, unknown[]> | null>(null);
  const [loading, setLoading] = useState(false);
  if (trace.length === 0) return <Empty description={t('agent.trace.empty')} />;
  const loadSteps = async () => {
    if (!messageId) return;
    setLoading(true);
    const result = await runTrace(canvasId, messageId);
    setLoading(false);
    if (result.code === 0 && result.data && 'trace' in result.data)
      setSteps(Object.fromEntries(result.data.trace.map((c) => [c.component_id, c.trace])));
    else setSteps({});
  };
  const json = (v: unknown) => (
    <pre
      style={{ fontSize: 11, maxHeight: 200, overflow: 'auto', background: '#fafafa', padding: 6, margin: 0 }}
    >
      {JSON.stringify(v, null, 2)}
    </pre>
  );
  return (
    <div data-testid="trace-view">
      {messageId && (
        <Button size="small" loading={loading} onClick={() => void loadSteps()} style={{ marginBottom: 8 }}>
          {t('agent.trace.loadSteps')}
        </Button>
      )}
      <Collapse
        size="small"
        items={trace.map((entry, i) => ({
          key: `${entry.componentId}-${i}`,
          label: (
            <span>
              <Tag color={entry.error ? 'red' : 'green'}>{entry.componentType}</Tag>
              {entry.componentName || entry.componentId}{' '}
              <Typography.Text type="secondary">
                {t('agent.run.seconds', { value: entry.elapsed.toFixed(2) })}
              </Typography.Text>
            </span>
          ),
          children: (
            <>
              {entry.error && <Typography.Text type="danger">{entry.error}</Typography.Text>}
              <Typography.Text strong>{t('agent.trace.inputs')}</Typography.Text>
              {json(entry.inputs)}
              <Typography.Text strong>{t('agent.trace.outputs')}</Typography.Text>
              {json(entry.outputs)}
              {steps?.[entry.componentId] && (
                <>
                  <Typography.Text strong>{t('agent.trace.steps')}</Typography.Text>
                  {json(steps[entry.componentId])}
                </>
              )}
            </>
          ),
        }))}
      />
    </div>
  );
}
