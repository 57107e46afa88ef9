import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import {
  FALLBACK_LANGUAGE,
  LANGUAGES,
  LANGUAGE_NAMES,
  STORAGE_KEYS,
  type LanguageCode,
} from '@lectern/shared';
import en from '../locales/en.json';
import { dayjsLocaleLoaders } from './locale-loaders';

/**
 * i18next set-up. English is the source and the fallback and ships in the main bundle; the other eight
 * languages are loaded on demand. The choice is kept in localStorage `lng`.
 */

type Resource = Record<string, unknown>;
const localeFiles = import.meta.glob<Resource>(['../locales/*.json', '!../locales/en.json'], {
  import: 'default',
});
/**
 * Each feature may keep its own strings in `features/<area>/locales/<lng>.json`; they are merged
 * under the key `<area>` (the key knowledge.create is read from features/knowledge/locales/<lng>.json).
 * Features can then be translated without touching one shared file.
 */
const featureEnglish = import.meta.glob<Resource>('../features/*/locales/en.json', {
  import: 'default',
  eager: true,
});
const featureFiles = import.meta.glob<Resource>(
  ['../features/*/locales/*.json', '!../features/*/locales/en.json'],
  {
    import: 'default',
  },
);

const areaOf = (path: string) => path.replace(/^\.\.\/features\/([^/]+)\/locales\/.*$/, '$1');

/** English of the core file plus every feature's English, merged by area. */
export function englishResources(): Resource {
  const merged: Resource = { ...en };
  for (const [path, tree] of Object.entries(featureEnglish)) merged[areaOf(path)] = tree;
  return merged;
}

/** How each language names itself in the language menus (not translated, by design). */
export const NATIVE_LANGUAGE_NAMES: Record<LanguageCode, string> = {
  en: 'English',
  zh: '简体中文',
  'zh-TRADITIONAL': '繁體中文',
  id: 'Bahasa Indonesia',
  ja: '日本語',
  es: 'Español',
  vi: 'Tiếng Việt',
  'pt-BR': 'Português (Brasil)',
  de: 'Deutsch',
};

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The code of a language as the server stores it (`"Chinese"` → `zh`); undefined when unknown. */
export function languageCodeOfName(name: string | null | undefined): LanguageCode | undefined {
  if (!name) return undefined;
  if (isLanguageCode(name)) return name;
  return LANGUAGES.find((code) => LANGUAGE_NAMES[code] === name);
}

export function storedLanguage(): LanguageCode {
  const value = localStorage.getItem(STORAGE_KEYS.language);
  return isLanguageCode(value) ? value : FALLBACK_LANGUAGE;
}

export function currentLanguage(): LanguageCode {
  return isLanguageCode(i18n.language) ? i18n.language : FALLBACK_LANGUAGE;
}

void i18n.use(initReactI18next).init({
  resources: { en: { translation: englishResources() } },
  lng: FALLBACK_LANGUAGE,
  fallbackLng: FALLBACK_LANGUAGE,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  showSupportNotice: false,
});

async function ensureResources(lng: LanguageCode): Promise<void> {
  if (i18n.hasResourceBundle(lng, 'translation')) return;
  const load = localeFiles[`../locales/${lng}.json`];
  if (!load) return;
  const bundle: Resource = { ...(await load()) };
  const features = Object.entries(featureFiles).filter(([path]) => path.endsWith(`/locales/${lng}.json`));
  for (const [path, loadFeature] of features) bundle[areaOf(path)] = await loadFeature();
  i18n.addResourceBundle(lng, 'translation', bundle, true, true);
}

/** Switches the interface language: texts, dayjs dates and (through the provider) antd's own texts. */
export async function changeLanguage(lng: LanguageCode): Promise<void> {
  const [, dayjsName] = await Promise.all([ensureResources(lng), dayjsLocaleLoaders[lng]()]);
  dayjs.locale(dayjsName);
  localStorage.setItem(STORAGE_KEYS.language, lng);
  await i18n.changeLanguage(lng);
  document.documentElement.lang = lng === 'zh-TRADITIONAL' ? 'zh-Hant' : lng === 'zh' ? 'zh-Hans' : lng;
}

/** Applies the stored choice before the first render. */
export function initLanguage(): Promise<void> {
  return changeLanguage(storedLanguage());
}

export default i18n;
