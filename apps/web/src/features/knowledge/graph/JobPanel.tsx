import { useEffect, useRef } from 'react';
import { Button, Card, Popover, Progress, Space, Tag, Typography } from 'antd';
import { PlayCircleOutlined, ProfileOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { alreadyShown } from '../../../api/request';
import { feedback } from '../../../api/feedback';
import { KB_JOB_KINDS, useCancelKbJob, useKbJobTrace, useRunKbJob, type KbJobKind } from '../../../api/graph';
import { translateProgressLine } from '../../../lib/progress-messages';
import { progressLog, lastLogLine } from '../progress';
import { jobView, tracePollMs, type JobState } from './jobs';

const STATE_COLOR: Record<JobState, string> = {
  none: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
};

function JobLog({ log }: { log: string }) {
  const { t } = useTranslation();
  const lines = progressLog(log);
  if (lines.length === 0) return <Typography.Text type="secondary">{t('knowledge.noLog')}</Typography.Text>;
  return (
    <ol
      aria-label={t('knowledge.graph.jobLog')}
      style={{
        margin: 0,
        paddingLeft: 0,
        listStyle: 'none',
        maxWidth: 560,
        maxHeight: 320,
        overflow: 'auto',
        fontFamily: 'monospace',
        fontSize: 12,
      }}
    >
      {lines.map((line, i) => (
        <li key={i} style={{ whiteSpace: 'pre-wrap' }}>
          {line.time && <Typography.Text type="secondary">{line.time} </Typography.Text>}
          <Typography.Text type={line.error ? 'danger' : undefined}>
            {translateProgressLine(line.text, t)}
          </Typography.Text>
        </li>
      ))}
    </ol>
  );
}

/** One KB job: start, live progress and log (trace polled while it runs), cancel. */
export function JobRow({ kbId, kind, onDone }: { kbId: string; kind: KbJobKind; onDone?: () => void }) {
  const { t } = useTranslation();
  const trace = useKbJobTrace(kbId, kind, tracePollMs);
  const run = useRunKbJob(kbId, kind);
  const cancel = useCancelKbJob(kbId, kind);
  const view = jobView(trace.data);
  const name = t(`knowledge.graph.job.${kind}`);

  // Tell the tab when a run it watched finishes, so it reloads the graph.
  const previous = useRef<JobState>(view.state);
  useEffect(() => {
    if (previous.current === 'running' && view.state === 'done') onDone?.();
    previous.current = view.state;
  }, [view.state, onDone]);

  const start = async () => {
    const result = await run.mutateAsync();
    if (result.code === 0) feedback.success(t('knowledge.graph.jobStarted', { name }));
    else if (!alreadyShown(result)) feedback.error(result.message);
  };
  const stop = async () => {
    const result = await cancel.mutateAsync();
    if (result.code === 0) feedback.success(t('knowledge.graph.jobCancelled', { name }));
    else if (!alreadyShown(result)) feedback.error(result.message);
  };

  return (
    <div
      role="group"
      aria-label={name}
      data-testid={`job-${kind}`}
      data-state={view.state}
      style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap', padding: '6px 0' }}
    >
      <Typography.Text strong style={{ minWidth: 180 }}>
        {name}
      </Typography.Text>
      <Tag color={STATE_COLOR[view.state]}>{t(`knowledge.graph.state.${view.state}`)}</Tag>
      {view.state === 'running' && (
        <Progress
          percent={view.percent}
          size="small"
          style={{ width: 160, margin: 0 }}
          aria-label={t('knowledge.graph.jobProgress', { name, percent: view.percent })}
        />
      )}
      <Typography.Text type="secondary" ellipsis style={{ flex: 1, minWidth: 120, maxWidth: 420 }}>
        {translateProgressLine(lastLogLine(view.log), t)}
      </Typography.Text>
      <Space size={4}>
        {view.state !== 'none' && (
          <Popover
            title={t('knowledge.graph.jobLogOf', { name })}
            content={<JobLog log={view.log} />}
            trigger="click"
          >
            <Button size="small" icon={<ProfileOutlined />}>
              {t('knowledge.graph.log')}
            </Button>
          </Popover>
        )}
        {view.state === 'running' ? (
          <Button
            size="small"
            danger
            icon={<StopOutlined />}
            loading={cancel.isPending}
            onClick={() => void stop()}
          >
            {t('knowledge.graph.cancelJob', { name })}
          </Button>
        ) : (
          <Button
            size="small"
            type={kind === 'graphrag' ? 'primary' : 'default'}
            icon={<PlayCircleOutlined />}
            loading={run.isPending}
            disabled={trace.isPending}
            onClick={() => void start()}
          >
            {t(`knowledge.graph.run.${kind}`)}
          </Button>
        )}
      </Space>
    </div>
  );
}

/** The graph, RAPTOR and mind-map jobs of a knowledge base, with live progress. */
export function JobPanel({ kbId, onGraphDone }: { kbId: string; onGraphDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('knowledge.graph.jobsTitle')} style={{ marginBottom: 12 }}>
      {KB_JOB_KINDS.map((kind) => (
        <JobRow key={kind} kbId={kbId} kind={kind} onDone={kind === 'graphrag' ? onGraphDone : undefined} />
      ))}
    </Card>
  );
}
