import { Fragment } from 'react';
import { Popover, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ChatTurn, Reference } from '../lib/run-state';

/** One chat turn; `[ID:n]` markers of an answer become numbered citations showing the chunk. */
export function AnswerView({ turn }: { turn: ChatTurn }) {
  const { t } = useTranslation();
  const mine = turn.role === 'user';
  const parts = turn.content.split(/(\[ID:\d+\])/g);
  const order: string[] = [];
  return (
    <div style={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start', margin: '6px 0' }}>
      <div
        data-testid={mine ? 'run-question' : 'run-answer'}
        style={{
          maxWidth: '90%',
          padding: '6px 10px',
          borderRadius: 8,
          whiteSpace: 'pre-wrap',
          background: mine ? '#e6f4ff' : '#f5f5f5',
        }}
      >
        {parts.map((part, i) => {
          const m = /^\[ID:(\d+)\]$/.exec(part);
          if (!m) return <Fragment key={i}>{part}</Fragment>;
          if (!order.includes(m[1])) order.push(m[1]);
          return <Citation key={i} n={order.indexOf(m[1]) + 1} chunkKey={m[1]} reference={turn.reference} />;
        })}
        {turn.files && turn.files.length > 0 && (
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
            {t('agent.run.attached', { names: turn.files.join(', ') })}
          </Typography.Text>
        )}
        {order.length > 0 && turn.reference && <Sources reference={turn.reference} keys={order} />}
      </div>
    </div>
  );
}

function Citation({ n, chunkKey, reference }: { n: number; chunkKey: string; reference?: Reference | null }) {
  const chunk = reference?.chunks?.[chunkKey];
  const sup = <sup style={{ color: '#1677ff', cursor: chunk ? 'pointer' : 'default' }}>[{n}]</sup>;
  if (!chunk) return sup;
  return (
    <Popover
      title={chunk.document_name}
      content={
        <div style={{ maxWidth: 360, maxHeight: 240, overflow: 'auto', whiteSpace: 'pre-wrap' }}>
          {chunk.content}
        </div>
      }
    >
      {sup}
    </Popover>
  );
}

function Sources({ reference, keys }: { reference: Reference; keys: string[] }) {
  const { t } = useTranslation();
  const names = [
    ...new Set(keys.map((k) => reference.chunks[k]?.document_name).filter((x): x is string => Boolean(x))),
  ];
  if (names.length === 0) return null;
  return (
    <div style={{ marginTop: 6, fontSize: 12 }} data-testid="run-sources">
      <Typography.Text type="secondary">{t('agent.run.sources')}</Typography.Text>
      <ul style={{ margin: 0, paddingLeft: 18 }}>
        {names.map((name) => (
          <li key={name}>{name}</li>
        ))}
      </ul>
    </div>
  );
}
