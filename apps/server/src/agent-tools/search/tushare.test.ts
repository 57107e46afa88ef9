import { expect } from 'vitest';
import { tushareAnswer } from '../../../test/standins/tools/data.js';
import { serviceToolSuite } from '../testing/service-suite.js';
import { tushareTool } from './data.js';

serviceToolSuite({
  title: 'TuShare tool',
  make: tushareTool,
  env: (origin) => ({ LECTERN_TUSHARE_BASE_URL: origin }),
  answer: tushareAnswer,
  params: { token: 'ts-token', src: 'sina' },
  args: { query: 'chips' },
  label: 'TuShare',
  auth: /TOKEN无效/,
  result(run, standin) {
    expect(standin.requests.at(-1)!.body).toMatchObject({
      api_name: 'news',
      params: { src: 'sina', start_date: '2024-01-01 09:00:00' },
    });
    expect(run.outputs.json).toEqual([
      { datetime: '2024-05-01 10:00:00', title: 'Chips rally', content: '半导体 chips rally today' },
    ]);
    expect(run.outputs.formalized_content).toBe(
      '| datetime | title | content |\n|:---|:---|:---|\n| 2024-05-01 10:00:00 | Chips rally | 半导体 chips rally today |',
    );
  },
  empty(run) {
    expect(run.outputs).toEqual({ formalized_content: '', json: [] });
  },
});
