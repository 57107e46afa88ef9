import { Button, Collapse, Typography, theme } from 'antd';
import { BulbOutlined, FileTextOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Reference } from '@lectern/shared';
import { referencedDocuments } from '../lib/citations';
import { splitThinking } from '../lib/thinking';
import { useDocumentOpener } from './document-context';
import { MessageMarkdown } from './MessageMarkdown';

/** The reasoning of a thinking model, apart from the answer and collapsible. */
function Thinking({ text, open }: { text: string; open: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Collapse
      size="small"
      ghost
      defaultActiveKey={open ? ['thinking'] : []}
      style={{ marginBottom: 8 }}
      items={[
        {
          key: 'thinking',
          label: (
            <span style={{ color: token.colorTextSecondary }}>
              <BulbOutlined aria-hidden /> {open ? t('chat.thinking') : t('chat.thoughts')}
            </span>
          ),
          children: (
            <div
              data-testid="thinking"
              style={{
                whiteSpace: 'pre-wrap',
                color: token.colorTextSecondary,
                fontSize: 13,
                borderLeft: `2px solid ${token.colorBorder}`,
                paddingLeft: 10,
              }}
            >
              {text}
            </div>
          ),
        },
      ]}
    />
  );
}

/** The documents an answer drew on, under it; a click opens the document where that is possible. */
export function ReferenceList({ reference, text }: { reference: Reference; text: string }) {
  const { t } = useTranslation();
  const open = useDocumentOpener();
  const docs = referencedDocuments(reference, text);
  if (docs.length === 0) return null;
  return (
    <div style={{ marginTop: 8, display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 4 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('chat.sources')}
      </Typography.Text>
      <ul aria-label={t('chat.sources')} style={{ display: 'contents', listStyle: 'none' }}>
        {docs.map((d) => (
          <li key={d.doc_id} style={{ display: 'inline' }}>
            <Button
              size="small"
              icon={<FileTextOutlined />}
              disabled={!open}
              onClick={() => open?.({ id: d.doc_id, name: d.doc_name })}
            >
              {d.doc_name || d.doc_id}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** An assistant answer: thinking, markdown with citation badges, sources; a cursor while it streams. */
export function AnswerBody({
  content,
  reference,
  streaming = false,
  showSources = true,
}: {
  content: string;
  reference: Reference;
  streaming?: boolean;
  showSources?: boolean;
}) {
  const { thinking, thinkingOpen, answer } = splitThinking(content);
  return (
    <div>
      {thinking !== null && <Thinking text={thinking} open={thinkingOpen} />}
      <div className={streaming ? 'streaming-cursor' : undefined}>
        <MessageMarkdown content={answer} reference={reference} />
      </div>
      {showSources && !streaming && <ReferenceList reference={reference} text={answer} />}
    </div>
  );
}
