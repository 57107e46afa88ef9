import type { LanguageCode } from '@lectern/shared';
import type { Locale } from 'antd/es/locale';

/**
 * Per-language loaders for antd's own texts and dayjs's month/day names. Each is a separate chunk,
 * fetched only when that language is chosen.
 */
type AntdModule = { default: Locale };

export const antdLocaleLoaders: Record<LanguageCode, () => Promise<AntdModule>> = {
  en: () => import('antd/locale/en_US'),
  zh: () => import('antd/locale/zh_CN'),
  'zh-TRADITIONAL': () => import('antd/locale/zh_TW'),
  id: () => import('antd/locale/id_ID'),
  ja: () => import('antd/locale/ja_JP'),
  es: () => import('antd/locale/es_ES'),
  vi: () => import('antd/locale/vi_VN'),
  'pt-BR': () => import('antd/locale/pt_BR'),
  de: () => import('antd/locale/de_DE'),
};

/** dayjs locale names; loading the module registers the locale. */
export const dayjsLocaleLoaders: Record<LanguageCode, () => Promise<string>> = {
  en: async () => 'en',
  zh: () => import('dayjs/locale/zh-cn').then(() => 'zh-cn'),
  'zh-TRADITIONAL': () => import('dayjs/locale/zh-tw').then(() => 'zh-tw'),
  id: () => import('dayjs/locale/id').then(() => 'id'),
  ja: () => import('dayjs/locale/ja').then(() => 'ja'),
  es: () => import('dayjs/locale/es').then(() => 'es'),
  vi: () => import('dayjs/locale/vi').then(() => 'vi'),
  'pt-BR': () => import('dayjs/locale/pt-br').then(() => 'pt-br'),
  de: () => import('dayjs/locale/de').then(() => 'de'),
};
