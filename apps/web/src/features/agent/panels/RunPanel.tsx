import { useEffect, useRef, useState, type Dispatch } from 'react';
import { Alert, Button, Input, Space, Tabs, Typography, Upload } from 'antd';
import { ClearOutlined, PaperClipOutlined, SendOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { cancelRun, resetCanvas, streamCompletion, uploadRunFile } from '../../../api/canvas';
import type { CanvasUpload } from '@lectern/shared';
import type { RunAction, RunState } from '../lib/run-state';
import { AnswerView } from './AnswerView';
import { SidePanel } from './SidePanel';
import { RunInputsForm, type InputDefs, type InputValues } from './RunInputsForm';
import { TraceView } from './TraceView';

export interface RunPanelProps {
  open: boolean;
  canvasId: string;
  run: RunState;
  dispatch: Dispatch<RunAction>;
  /** Begin's inputs, asked before the first run */
  beginInputs: InputDefs;
  prologue: string;
  /** saves pending edits, so the run uses what is on the canvas; the reason when that failed */
  beforeRun: () => Promise<string | null>;
  /** the run ended: the server saved history/path/globals */
  afterRun: () => void;
  onClose: () => void;
}

/**
 * The Run panel: one conversation with the canvas (until reset), streamed answers with citations,
 * Begin and UserFillUp forms, attached files, stop, and the trace of the last run.
 */
export function RunPanel({
  open,
  canvasId,
  run,
  dispatch,
  beginInputs,
  prologue,
  beforeRun,
  afterRun,
  onClose,
}: RunPanelProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [files, setFiles] = useState<CanvasUpload[]>([]);
  const [inputs, setInputs] = useState<InputValues | null>(null);
  const [tab, setTab] = useState('chat');
  const abort = useRef<AbortController | null>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const needsBeginForm = Object.keys(beginInputs).length > 0 && inputs === null && run.turns.length === 0;

  // A block body: recent browsers return a promise from scrollIntoView, which must not become the cleanup.
  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [run.turns]);
  useEffect(() => () => abort.current?.abort(), []);

  const start = async (body: { query?: string; inputs?: InputValues }) => {
    const notSaved = await beforeRun();
    if (notSaved) {
      // the server would run the last saved canvas, not the one on screen
      dispatch({ type: 'failed', message: t('agent.run.notSaved', { reason: notSaved }) });
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    dispatch({ type: 'start', query: body.query ?? '', files: files.map((f) => f.name) });
    const outcome = await streamCompletion(
      {
        id: canvasId,
        query: body.query,
        inputs: body.inputs ?? inputs ?? undefined,
        files: files.map((f) => ({ id: f.id, name: f.name })),
      },
      (event) => dispatch({ type: 'event', event, at: Date.now() }),
      controller.signal,
    );
    setFiles([]);
    if (!outcome.ok && !outcome.aborted && !outcome.shown)
      dispatch({ type: 'failed', message: outcome.message });
    dispatch({ type: 'ended' });
    afterRun();
  };

  const send = () => {
    if (run.running) return;
    const text = query.trim();
    setQuery('');
    void start({ query: text });
  };

  const stop = async () => {
    if (run.taskId) await cancelRun(run.taskId);
    abort.current?.abort();
    dispatch({ type: 'ended' });
  };

  const reset = async () => {
    const result = await resetCanvas(canvasId);
    if (result.code === 0) {
      dispatch({ type: 'reset' });
      setInputs(null);
      afterRun();
    }
  };

  const chat = (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <div style={{ flex: 1, overflowY: 'auto' }} aria-live="polite" data-testid="run-messages">
        {prologue && <AnswerView turn={{ role: 'assistant', content: prologue }} />}
        {run.turns.map((turn, i) => (
          <AnswerView key={i} turn={turn} />
        ))}
        {run.thinking && <Typography.Text type="secondary">{t('agent.run.thinking')}</Typography.Text>}
        {run.error && (
          <Alert
            type="error"
            showIcon
            message={run.error === 'canceled' ? t('agent.run.canceled') : run.error}
            data-testid="run-error"
          />
        )}
        {run.userInputs && (
          <RunInputsForm
            canvasId={canvasId}
            defs={run.userInputs.inputs}
            tips={run.userInputs.tips}
            submitLabel={t('agent.run.continue')}
            onSubmit={(values) => void start({ inputs: values })}
          />
        )}
        <div ref={bottom} />
      </div>
      {needsBeginForm ? (
        <RunInputsForm
          canvasId={canvasId}
          defs={beginInputs}
          submitLabel={t('agent.run.start')}
          onSubmit={(values) => setInputs(values)}
        />
      ) : (
        <div style={{ borderTop: '1px solid #f0f0f0', paddingTop: 8 }}>
          {files.length > 0 && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('agent.run.attached', { names: files.map((f) => f.name).join(', ') })}
            </Typography.Text>
          )}
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 6 }}
            value={query}
            placeholder={t('agent.run.placeholder')}
            aria-label={t('agent.run.placeholder')}
            data-testid="run-input"
            onChange={(e) => setQuery(e.target.value)}
            onPressEnter={(e) => {
              if (!e.shiftKey) {
                e.preventDefault();
                send();
              }
            }}
          />
          <Space style={{ marginTop: 6 }}>
            <Upload
              showUploadList={false}
              multiple
              customRequest={async ({ file, onSuccess, onError }) => {
                const result = await uploadRunFile(canvasId, file as File);
                if (result.code === 0 && result.data) {
                  const list = Array.isArray(result.data) ? result.data : [result.data];
                  setFiles((prev) => [...prev, ...list]);
                  onSuccess?.(result.data);
                } else onError?.(new Error(result.message));
              }}
            >
              <Button icon={<PaperClipOutlined />} aria-label={t('agent.run.attach')} />
            </Upload>
            {run.running ? (
              <Button danger icon={<StopOutlined />} onClick={() => void stop()} data-testid="run-stop">
                {t('agent.run.stop')}
              </Button>
            ) : (
              <Button type="primary" icon={<SendOutlined />} onClick={send} data-testid="run-send">
                {t('agent.run.send')}
              </Button>
            )}
            <Button icon={<ClearOutlined />} onClick={() => void reset()} disabled={run.running}>
              {t('agent.run.reset')}
            </Button>
          </Space>
        </div>
      )}
    </div>
  );

  return (
    <SidePanel hidden={!open} width={460} title={t('agent.run.title')} onClose={onClose} testId="run-panel">
      <Tabs
        activeKey={tab}
        onChange={setTab}
        style={{ flex: 1 }}
        items={[
          { key: 'chat', label: t('agent.run.chatTab'), children: chat },
          {
            key: 'trace',
            label: t('agent.run.traceTab'),
            children: <TraceView canvasId={canvasId} messageId={run.messageId} trace={run.trace} />,
          },
        ]}
      />
      {run.elapsed !== null && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('agent.run.finishedIn', { value: run.elapsed.toFixed(2) })}
        </Typography.Text>
      )}
    </SidePanel>
  );
}
