/**
 * A toast that must survive a full page load (the sign-out redirect): kept for one page in
 * sessionStorage under an i18n key, shown and removed by the next page.
 */
const KEY = 'lectern.flash';

export function flashOnNextPage(i18nKey: string): void {
  sessionStorage.setItem(KEY, i18nKey);
}

export function takeFlash(): string | null {
  const value = sessionStorage.getItem(KEY);
  if (value) sessionStorage.removeItem(KEY);
  return value;
}
