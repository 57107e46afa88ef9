import { expect } from 'vitest';
import { deeplAnswer } from '../../../test/standins/tools/data.js';
import { serviceToolSuite } from '../testing/service-suite.js';
import { deeplTool } from './data.js';

serviceToolSuite({
  title: 'DeepL tool',
  make: deeplTool,
  env: (origin) => ({ LECTERN_DEEPL_BASE_URL: origin }),
  answer: deeplAnswer,
  params: { auth_key: 'dl-key', source_lang: 'ZH', target_lang: 'EN-US' },
  args: { query: '你好' },
  label: 'DeepL',
  auth: /HTTP 403: Wrong endpoint/,
  result(run, standin) {
    expect(standin.requests.at(-1)!.body).toEqual({
      text: ['你好'],
      target_lang: 'EN-US',
      source_lang: 'ZH',
    });
    expect(run.outputs).toEqual({ formalized_content: 'EN(你好)' });
  },
  empty(run) {
    expect(run.outputs).toEqual({ formalized_content: '' });
  },
});
