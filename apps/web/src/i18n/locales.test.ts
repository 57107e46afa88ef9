import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { LANGUAGES, STORAGE_KEYS } from '@lectern/shared';
import i18n, { changeLanguage, languageCodeOfName } from './index';

type Tree = { [key: string]: string | Tree };
const coreFiles = import.meta.glob<Tree>('../locales/*.json', { eager: true, import: 'default' });
const featureFiles = import.meta.glob<Tree>('../features/*/locales/*.json', {
  eager: true,
  import: 'default',
});
// Feature locale files are merged under their area's key, exactly as i18n/index.ts does at run time.
const files: Record<string, Tree> = Object.fromEntries(
  Object.entries(coreFiles).map(([path, tree]) => {
    const lng = path.replace(/^.*\/(.+)\.json$/, '$1');
    const merged: Tree = { ...tree };
    for (const [fpath, ftree] of Object.entries(featureFiles)) {
      const m = /features\/([^/]+)\/locales\/(.+)\.json$/.exec(fpath);
      if (m && m[2] === lng) merged[m[1]] = ftree;
    }
    return [path, merged];
  }),
);
const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out[`${prefix}${key}`] = value;
    else Object.assign(out, flatten(value, `${prefix}${key}.`));
  }
  return out;
}

const locales = Object.fromEntries(
  Object.entries(files).map(([path, tree]) => [path.replace(/^.*\/(.+)\.json$/, '$1'), flatten(tree)]),
);
const en = locales.en;

/**
 * Values that are the same as English by nature: the product name everywhere; words that these
 * languages borrow unchanged. Anything else equal to English is an untranslated string.
 */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  '*': [
    'common.appName',
    'chat.selfRag',
    'chat.topN',
    'chat.topK',
    'chat.topP',
    'agent.operators.LLM',
    'agent.form.topN',
  ],
  de: [
    'nav.chat',
    'settings.team',
    'models.types.chat',
    'agent.operators.Agent',
    'agent.form.name',
    'agent.form.optional',
    'agent.settings.name',
    'agent.settings.team',
    'team.status',
    'metadata.operator',
  ],
  es: ['metadata.methods.manual', 'progress.error'],
  id: ['team.status', 'metadata.methods.manual', 'metadata.operator'],
  'pt-BR': ['metadata.methods.manual'],
};

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('locales', () => {
  it('ships exactly the nine interface languages', () => {
    expect(Object.keys(locales).sort()).toEqual([...LANGUAGES].sort());
  });

  for (const lng of LANGUAGES.filter((l) => l !== 'en')) {
    it(`${lng} has exactly the English keys, real translations and the same placeholders`, () => {
      const table = locales[lng];
      expect(Object.keys(table).sort()).toEqual(Object.keys(en).sort());
      const allowed = [...SAME_AS_ENGLISH['*'], ...(SAME_AS_ENGLISH[lng] ?? [])];
      const untranslated = Object.keys(en).filter((k) => table[k] === en[k] && !allowed.includes(k));
      expect(untranslated).toEqual([]);
      for (const key of Object.keys(en)) {
        expect(table[key].trim().length, `${lng}:${key} is empty`).toBeGreaterThan(0);
        expect(placeholders(table[key]), `${lng}:${key} placeholders`).toEqual(placeholders(en[key]));
      }
    });
  }

  it('the allow-list names only keys that exist and really are identical', () => {
    for (const [lng, keys] of Object.entries(SAME_AS_ENGLISH)) {
      const langs = lng === '*' ? LANGUAGES.filter((l) => l !== 'en') : [lng];
      for (const l of langs) for (const key of keys) expect(locales[l][key], `${l}:${key}`).toBe(en[key]);
    }
  });

  it('every literal key the code translates exists in English', () => {
    const used = new Set<string>();
    for (const text of Object.values(sources)) {
      for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z]+\.[\w.]+)'/g)) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((k) => !(k in en))).toEqual([]);
  });

  it('has a status text for every HTTP status of the catalogue (SPEC §8)', () => {
    const statuses = [200, 201, 202, 204, 400, 401, 403, 404, 406, 410, 413, 422, 500, 502, 503, 504];
    expect(
      Object.keys(en)
        .filter((k) => k.startsWith('httpStatus.'))
        .map((k) => Number(k.split('.')[1])),
    ).toEqual(statuses);
  });
});

describe('language switching', () => {
  it('loads the language on demand, keeps the choice in `lng` and switches dayjs', async () => {
    expect(i18n.t('nav.knowledge')).toBe('Knowledge base');
    await changeLanguage('zh');
    expect(i18n.t('nav.knowledge')).toBe('知识库');
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('zh');
    expect(dayjs.locale()).toBe('zh-cn');
    await changeLanguage('zh-TRADITIONAL');
    expect(i18n.t('nav.knowledge')).toBe('知識庫');
    await changeLanguage('pt-BR');
    expect(i18n.t('nav.logout')).toBe('Sair');
    expect(dayjs.locale()).toBe('pt-br');
    await changeLanguage('en');
    expect(i18n.t('nav.knowledge')).toBe('Knowledge base');
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('en');
  });

  it('maps the server language names to interface codes', () => {
    expect(languageCodeOfName('English')).toBe('en');
    expect(languageCodeOfName('Chinese')).toBe('zh');
    expect(languageCodeOfName('Traditional Chinese')).toBe('zh-TRADITIONAL');
    expect(languageCodeOfName('Portuguese (Brazil)')).toBe('pt-BR');
    expect(languageCodeOfName('Klingon')).toBeUndefined();
  });
});
