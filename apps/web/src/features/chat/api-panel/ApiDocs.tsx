import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { serviceEndpoint } from './ApiKeysSection';

/** Request and response examples of the legacy chat API (API.md §10) with the SSE framing of §9. */
export function apiExamples(endpoint: string) {
  const newConversation = `curl -H "Authorization: Bearer <YOUR_API_KEY>" \\
  "${endpoint}/new_conversation?user_id=visitor-42"`;
  const newConversationAnswer = JSON.stringify(
    {
      code: 0,
      message: 'success',
      data: {
        id: '<conversation_id>',
        dialog_id: '<dialog_id>',
        user_id: 'visitor-42',
        message: [{ role: 'assistant', content: "Hi! I'm your assistant. What can I do for you?" }],
      },
    },
    null,
    2,
  );
  const completion = `curl -N -X POST "${endpoint}/completion" \\
  -H "Authorization: Bearer <YOUR_API_KEY>" \\
  -H "Content-Type: application/json" \\
  -d '{
    "conversation_id": "<conversation_id>",
    "messages": [{ "role": "user", "content": "What does the warranty cover?" }],
    "stream": true,
    "quote": true
  }'`;
  const completionAnswer = `data:{"code":0,"message":"","data":{"answer":"The warranty","reference":{"chunks":[]},"audio_binary":null,"prompt":"","created_at":1745865641.2,"final":false,"id":"<message_id>","session_id":"<conversation_id>"}}

data:{"code":0,"message":"","data":{"answer":" covers parts for two years [ID:0].","reference":{"chunks":[]},"final":false,"id":"<message_id>","session_id":"<conversation_id>"}}

data:{"code":0,"message":"","data":{"answer":"","reference":{"total":1,"chunks":[{"chunk_id":"…","content_with_weight":"…","doc_id":"…","doc_name":"warranty.pdf","similarity":0.82}],"doc_aggs":[{"doc_name":"warranty.pdf","doc_id":"…","count":1}]},"final":true,"id":"<message_id>","session_id":"<conversation_id>"}}

data:{"code":0,"message":"","data":true}`;
  const errorEvent = `data:{"code":500,"message":"<error>","data":{"answer":"**ERROR**: <error>","reference":[]}}

data:{"code":0,"message":"","data":true}`;
  const getConversation = `curl -H "Authorization: Bearer <YOUR_API_KEY>" \\
  "${endpoint}/conversation/<conversation_id>"`;
  return {
    newConversation,
    newConversationAnswer,
    completion,
    completionAnswer,
    errorEvent,
    getConversation,
  };
}

function Code({ children }: { children: string }) {
  return (
    <Typography.Paragraph copyable={{ text: children }} style={{ margin: '0 0 16px' }}>
      <pre style={{ fontSize: 12, overflowX: 'auto', margin: 0 }}>{children}</pre>
    </Typography.Paragraph>
  );
}

export function ApiDocs() {
  const { t } = useTranslation();
  const ex = apiExamples(serviceEndpoint());
  return (
    <article aria-label={t('chat.apiDocs')}>
      <Typography.Paragraph>{t('chat.docsIntro')}</Typography.Paragraph>
      <Typography.Title level={3} style={{ fontSize: 15 }}>
        GET /v1/api/new_conversation
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('chat.docsNewConversation')}</Typography.Paragraph>
      <Code>{ex.newConversation}</Code>
      <Typography.Text strong>{t('chat.docsResponse')}</Typography.Text>
      <Code>{ex.newConversationAnswer}</Code>
      <Typography.Title level={3} style={{ fontSize: 15 }}>
        POST /v1/api/completion
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('chat.docsCompletion')}</Typography.Paragraph>
      <Code>{ex.completion}</Code>
      <Typography.Text strong>{t('chat.docsStream')}</Typography.Text>
      <Typography.Paragraph type="secondary">{t('chat.docsStreamFormat')}</Typography.Paragraph>
      <Code>{ex.completionAnswer}</Code>
      <Typography.Text strong>{t('chat.docsErrors')}</Typography.Text>
      <Code>{ex.errorEvent}</Code>
      <Typography.Title level={3} style={{ fontSize: 15 }}>
        GET /v1/api/conversation/&lt;conversation_id&gt;
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('chat.docsGetConversation')}</Typography.Paragraph>
      <Code>{ex.getConversation}</Code>
    </article>
  );
}
