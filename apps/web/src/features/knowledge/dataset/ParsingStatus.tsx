import { Button, Popover, Progress, Space, Tag, Typography } from 'antd';
import { ProfileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { DocumentInfo } from '@lectern/shared';
import { translateProgressLine } from '../../../lib/progress-messages';
import { formatDuration, lastLogLine, progressLog, progressPercent, runKey, type RunKey } from '../progress';

const COLORS: Record<RunKey, string> = {
  unstart: 'default',
  running: 'processing',
  schedule: 'processing',
  cancel: 'warning',
  done: 'success',
  fail: 'error',
};

function ProgressLog({ doc }: { doc: DocumentInfo }) {
  const { t } = useTranslation();
  const lines = progressLog(doc.progress_msg);
  return (
    <div style={{ maxWidth: 520 }}>
      <Space orientation="vertical" size={2} style={{ marginBottom: 8 }}>
        {doc.process_begin_at && (
          <Typography.Text type="secondary">
            {t('knowledge.beganAt', { time: doc.process_begin_at })}
          </Typography.Text>
        )}
        {doc.process_duration > 0 && (
          <Typography.Text type="secondary">
            {t('knowledge.duration', { duration: formatDuration(doc.process_duration) })}
          </Typography.Text>
        )}
      </Space>
      {lines.length === 0 ? (
        <Typography.Text type="secondary">{t('knowledge.noLog')}</Typography.Text>
      ) : (
        <ol
          style={{
            margin: 0,
            paddingLeft: 0,
            listStyle: 'none',
            maxHeight: 320,
            overflow: 'auto',
            fontFamily: 'monospace',
            fontSize: 12,
          }}
          aria-label={t('knowledge.progressLog')}
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
      )}
    </div>
  );
}

/** Parsing status, live progress while parsing, and the timestamped log in a popover. */
export function ParsingStatus({ doc }: { doc: DocumentInfo }) {
  const { t } = useTranslation();
  const key = runKey(doc.run);
  const running = key === 'running' || key === 'schedule';
  const percent = progressPercent(doc.progress);
  return (
    <div style={{ minWidth: 160 }} data-testid={`status-${doc.id}`} data-run={doc.run}>
      <Space size={4}>
        <Tag color={COLORS[key]} style={{ marginInlineEnd: 0 }}>
          {t(`knowledge.run.${key}`)}
          {running ? ` ${percent}%` : ''}
        </Tag>
        <Popover
          title={t('knowledge.progressLog')}
          content={<ProgressLog doc={doc} />}
          trigger={['hover', 'click']}
        >
          <Button
            type="text"
            size="small"
            icon={<ProfileOutlined />}
            aria-label={t('knowledge.showLog', { name: doc.name })}
          />
        </Popover>
      </Space>
      {running && (
        <Progress
          percent={percent}
          size="small"
          showInfo={false}
          status="active"
          aria-label={t('knowledge.progressAria', { percent })}
        />
      )}
      {(running || key === 'fail') && (
        <Typography.Text
          type={key === 'fail' ? 'danger' : 'secondary'}
          style={{ fontSize: 12 }}
          ellipsis={{ tooltip: true }}
        >
          {translateProgressLine(lastLogLine(doc.progress_msg), t)}
        </Typography.Text>
      )}
    </div>
  );
}
