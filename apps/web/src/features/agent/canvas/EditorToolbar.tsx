import { useRef } from 'react';
import { Link } from 'react-router';
import { Badge, Button, Divider, Popover, Space, Tooltip, Typography } from 'antd';
import {
  ArrowLeftOutlined,
  CheckCircleOutlined,
  CloudUploadOutlined,
  DownloadOutlined,
  ExclamationCircleOutlined,
  HistoryOutlined,
  LoadingOutlined,
  PlayCircleOutlined,
  RedoOutlined,
  SettingOutlined,
  UndoOutlined,
  UploadOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { SaveState } from '../lib/autosave';

export interface ProblemItem {
  nodeId: string | null;
  text: string;
}

export interface EditorToolbarProps {
  title: string;
  saveState: SaveState;
  canUndo: boolean;
  canRedo: boolean;
  problems: ProblemItem[];
  onUndo: () => void;
  onRedo: () => void;
  onSave: () => void;
  onImport: (file: File) => void;
  onExport: () => void;
  onVersions: () => void;
  onSettings: () => void;
  onRun: () => void;
  onProblem: (nodeId: string) => void;
}

/** The visible saved state of autosave: saved (when), unsaved changes, saving, or not saved (why). */
function SaveIndicator({ state, onSave }: { state: SaveState; onSave: () => void }) {
  const { t } = useTranslation();
  const text =
    state.kind === 'saved'
      ? state.at
        ? t('agent.save.savedAt', { time: dayjs(state.at).format('HH:mm:ss') })
        : t('agent.save.saved')
      : state.kind === 'saving'
        ? t('agent.save.saving')
        : state.kind === 'dirty'
          ? t('agent.save.dirty')
          : t('agent.save.failed');
  const icon =
    state.kind === 'saved' ? (
      <CheckCircleOutlined />
    ) : state.kind === 'saving' ? (
      <LoadingOutlined />
    ) : state.kind === 'dirty' ? (
      <CloudUploadOutlined />
    ) : (
      <ExclamationCircleOutlined />
    );
  const body = (
    <Typography.Text
      type={state.kind === 'error' ? 'danger' : 'secondary'}
      data-testid="save-state"
      data-state={state.kind}
      title={state.kind === 'error' ? state.message : undefined}
      role="status"
      style={{ fontSize: 12 }}
    >
      {icon} {text}
    </Typography.Text>
  );
  return (
    <Space size={4}>
      {state.kind === 'error' ? (
        <Tooltip title={<span style={{ whiteSpace: 'pre-wrap' }}>{state.message}</span>}>{body}</Tooltip>
      ) : (
        body
      )}
      {(state.kind === 'error' || state.kind === 'dirty') && (
        <Button size="small" type="link" onClick={onSave}>
          {t('agent.save.now')}
        </Button>
      )}
    </Space>
  );
}

export function EditorToolbar(p: EditorToolbarProps) {
  const { t } = useTranslation();
  const file = useRef<HTMLInputElement>(null);
  const problems = (
    <div style={{ maxWidth: 420, maxHeight: 320, overflow: 'auto' }} data-testid="problem-list">
      {p.problems.length === 0
        ? t('agent.problems.none')
        : p.problems.map((problem, i) => (
            <div
              key={i}
              style={{ padding: '2px 0', cursor: problem.nodeId ? 'pointer' : undefined }}
              onClick={() => problem.nodeId && p.onProblem(problem.nodeId)}
            >
              <WarningOutlined style={{ color: '#faad14' }} /> {problem.text}
            </div>
          ))}
    </div>
  );
  return (
    <div
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        padding: '6px 12px',
        borderBottom: '1px solid #f0f0f0',
        flexWrap: 'wrap',
      }}
    >
      <Link to="/agent" aria-label={t('agent.editor.back')}>
        <ArrowLeftOutlined />
      </Link>
      <Typography.Title level={1} style={{ fontSize: 16, margin: 0 }} data-testid="editor-title">
        {p.title}
      </Typography.Title>
      <SaveIndicator state={p.saveState} onSave={p.onSave} />
      <div style={{ flex: 1 }} />
      <Space size={2}>
        <Tooltip title={t('agent.editor.undo')}>
          <Button
            type="text"
            icon={<UndoOutlined />}
            disabled={!p.canUndo}
            onClick={p.onUndo}
            aria-label={t('agent.editor.undo')}
            data-testid="undo"
          />
        </Tooltip>
        <Tooltip title={t('agent.editor.redo')}>
          <Button
            type="text"
            icon={<RedoOutlined />}
            disabled={!p.canRedo}
            onClick={p.onRedo}
            aria-label={t('agent.editor.redo')}
            data-testid="redo"
          />
        </Tooltip>
        <Divider type="vertical" />
        <Popover content={problems} title={t('agent.problems.title')} trigger="click">
          <Badge count={p.problems.length} size="small" offset={[-4, 4]}>
            <Button
              type="text"
              icon={<WarningOutlined />}
              aria-label={t('agent.problems.title')}
              data-testid="problems"
            />
          </Badge>
        </Popover>
        <input
          ref={file}
          type="file"
          accept=".json,application/json"
          hidden
          data-testid="import-file"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) p.onImport(f);
            e.target.value = '';
          }}
        />
        <Tooltip title={t('agent.editor.import')}>
          <Button
            type="text"
            icon={<UploadOutlined />}
            onClick={() => file.current?.click()}
            aria-label={t('agent.editor.import')}
          />
        </Tooltip>
        <Tooltip title={t('agent.editor.export')}>
          <Button
            type="text"
            icon={<DownloadOutlined />}
            onClick={p.onExport}
            aria-label={t('agent.editor.export')}
            data-testid="export"
          />
        </Tooltip>
        <Button icon={<HistoryOutlined />} onClick={p.onVersions} data-testid="open-versions">
          {t('agent.versions.title')}
        </Button>
        <Button icon={<SettingOutlined />} onClick={p.onSettings} data-testid="open-settings">
          {t('agent.settings.title')}
        </Button>
        <Button type="primary" icon={<PlayCircleOutlined />} onClick={p.onRun} data-testid="open-run">
          {t('agent.run.title')}
        </Button>
      </Space>
    </div>
  );
}
