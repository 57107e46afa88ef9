import { describe, expect, it } from 'vitest';
import i18next, { type TFunction } from 'i18next';
import {
  describeErrorText,
  LANGUAGES,
  progressMessage,
  progressMessageParams,
  PROGRESS_MESSAGES,
  type LanguageCode,
  type ProgressMessageKey,
} from '@lectern/shared';
import { translateProgressLine, translateProgressMessage } from './progress-messages';

type Tree = { [key: string]: string | Tree };
const files = import.meta.glob<Tree>('../locales/*.json', { eager: true, import: 'default' });
const resources = Object.fromEntries(
  Object.entries(files).map(([path, tree]) => [path.replace(/^.*\/(.+)\.json$/, '$1'), tree]),
) as Record<LanguageCode, Tree>;

const KEYS = Object.keys(PROGRESS_MESSAGES) as ProgressMessageKey[];
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/** A translator for one language, set up as the app does (English fallback, no escaping). */
function translator(lng: LanguageCode): TFunction {
  const instance = i18next.createInstance();
  void instance.init({
    lng,
    fallbackLng: 'en',
    resources: Object.fromEntries(Object.entries(resources).map(([l, tree]) => [l, { translation: tree }])),
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  });
  return instance.t;
}

function messagesOf(lng: LanguageCode): Record<string, string> {
  const progress = resources[lng].progress as Tree | undefined;
  return (progress?.msg ?? {}) as Record<string, string>;
}

function sample(key: ProgressMessageKey): { text: string; values: string[] } {
  const params = Object.fromEntries(progressMessageParams(key).map((name, i) => [name, `${17 + i}`]));
  const text = (progressMessage as unknown as (k: ProgressMessageKey, p?: Record<string, string>) => string)(
    key,
    params,
  );
  return { text, values: Object.values(params) };
}

describe('progress messages in the user language', () => {
  for (const lng of LANGUAGES) {
    it(`${lng}: every server message has a translation with the same params`, () => {
      const table = messagesOf(lng);
      expect(Object.keys(table).sort()).toEqual([...KEYS].sort());
      for (const key of KEYS) {
        expect(table[key]?.trim().length, `${lng}:${key}`).toBeGreaterThan(0);
        expect(placeholders(table[key]), `${lng}:${key}`).toEqual(progressMessageParams(key).sort());
        if (lng === 'en') expect(table[key], key).toBe(PROGRESS_MESSAGES[key]);
        else expect(table[key], `${lng}:${key} is English`).not.toBe(PROGRESS_MESSAGES[key]);
      }
    });

    it(`${lng}: every server log line is shown translated, with its values`, () => {
      const t = translator(lng);
      for (const key of KEYS) {
        const { text, values } = sample(key);
        const shown = translateProgressLine(`10:00:01 ${text}`, t);
        let expected = messagesOf(lng)[key];
        progressMessageParams(key).forEach((name, i) => {
          expected = expected.replace(`{{${name}}}`, values[i]);
        });
        expect(shown, `${lng}:${key}`).toBe(expected);
        if (lng !== 'en') expect(shown, `${lng}:${key}`).not.toBe(text);
      }
    });
  }

  it('translates the page range, the error and cancel marks, and failures wrapping failures', () => {
    const de = translator('de');
    expect(translateProgressLine('10:00:01 Page(1~12): Start to parse.', de)).toBe(
      'Seite(1~12): Parsen beginnt.',
    );
    expect(translateProgressLine('Page(13~24): OCR page 14/40.', de)).toBe('Seite(13~24): OCR Seite 14/40.');
    expect(translateProgressLine('Task has been canceled. [Canceled]', de)).toBe(
      'Die Aufgabe wurde abgebrochen. [Abgebrochen]',
    );
    expect(
      translateProgressLine(
        '[ERROR] The task failed: The uploaded file is missing from storage; upload it again.',
        de,
      ),
    ).toBe(
      '[FEHLER] Die Aufgabe ist fehlgeschlagen: Die hochgeladene Datei fehlt im Speicher; laden Sie sie erneut hoch.',
    );
    expect(
      translateProgressMessage(
        'RAPTOR failed: RAPTOR failed: the chat model gave no summary for any of 3 clusters',
        de,
      ),
    ).toBe(
      'RAPTOR fehlgeschlagen: RAPTOR fehlgeschlagen: Das Chat-Modell hat für keinen der 3 Cluster eine Zusammenfassung geliefert',
    );
    expect(translateProgressLine('Mind map of Bericht (1).pdf failed: timeout', de)).toBe(
      'Mindmap von Bericht (1).pdf fehlgeschlagen: timeout',
    );
  });

  it('translates a free-form error of a known class, keeping only its short raw suffix', () => {
    const line = `[ERROR] ${progressMessage('modelCallFailed', { error: 'Status 429: Too Many Requests' })}`;
    expect(line).toBe(
      '[ERROR] The model call failed: The model provider is limiting requests (HTTP 429): wait a moment and run it again. [Status 429: Too Many Requests]',
    );
    expect(translateProgressLine(line, translator('de'))).toBe(
      '[FEHLER] Der Modellaufruf ist fehlgeschlagen: Der Modellanbieter begrenzt die Anfragen (HTTP 429): warte kurz und starte es erneut. [Status 429: Too Many Requests]',
    );
    expect(
      translateProgressLine(describeErrorText('connect ECONNREFUSED 127.0.0.1:9'), translator('ja')),
    ).toBe(
      'サービスに接続できませんでした (接続拒否またはホストに到達不能)。[connect ECONNREFUSED 127.0.0.1:9]',
    );
  });

  it('shows lines it does not know as the server sent them', () => {
    const ja = translator('ja');
    expect(translateProgressLine('The PDF is encrypted.', ja)).toBe('The PDF is encrypted.');
    expect(translateProgressLine('[ERROR] The PDF is encrypted.', ja)).toBe('[エラー] The PDF is encrypted.');
    expect(translateProgressLine('', ja)).toBe('');
  });
});
