import { sendJson, type StandinContext } from '../common.js';
import type { StandinMode } from '../../../src/agent-tools/testing/service-suite.js';

/** DeepL (`POST /v2/translate`, `DeepL-Auth-Key`, 403 `{"message"}`) and TuShare (`POST /`, `{code, msg, data}`). */
export function deeplAnswer(c: StandinContext, mode: StandinMode): boolean {
  if (c.rec.path !== '/v2/translate') return false;
  if (mode === 'auth' || c.rec.headers.authorization !== 'DeepL-Auth-Key dl-key')
    return (sendJson(c.res, 403, { message: 'Wrong endpoint. Use https://api-free.deepl.com' }), true);
  const texts = (c.rec.body as { text: string[] }).text;
  sendJson(c.res, 200, {
    translations:
      mode === 'empty' ? [] : texts.map((t) => ({ detected_source_language: 'ZH', text: `EN(${t})` })),
  });
  return true;
}

export function tushareAnswer(c: StandinContext, mode: StandinMode): boolean {
  if (c.rec.method !== 'POST') return false;
  const body = c.rec.body as { token: string; api_name: string };
  if (mode === 'auth' || body.token !== 'ts-token')
    return (
      sendJson(c.res, 200, { request_id: 'r1', code: 40101, msg: '抱歉，您输入的TOKEN无效！', data: null }),
      true
    );
  const items =
    mode === 'empty'
      ? []
      : [
          ['2024-05-01 10:00:00', 'Chips rally', '半导体 chips rally today'],
          ['2024-05-01 11:00:00', 'Oil', 'oil flat'],
        ];
  sendJson(c.res, 200, {
    request_id: 'r2',
    code: 0,
    msg: '',
    data: { fields: ['datetime', 'title', 'content'], items, has_more: false },
  });
  return true;
}
