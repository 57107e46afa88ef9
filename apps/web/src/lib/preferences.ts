import { useSyncExternalStore } from 'react';
import type { ColorSchema, UserInfo } from '@lectern/shared';
import { getStoredUserInfo } from '../api/storage';
import { changeLanguage, currentLanguage, languageCodeOfName } from '../i18n';

/**
 * The color scheme in force. It starts from the stored user object (so a returning user sees their
 * scheme at once) and follows the profile when it loads or changes.
 */
function initial(): ColorSchema {
  return getStoredUserInfo()?.color_schema === 'Dark' ? 'Dark' : 'Bright';
}

let colorSchema: ColorSchema = initial();
const listeners = new Set<() => void>();

export function setColorSchema(next: string): void {
  const value: ColorSchema = next === 'Dark' ? 'Dark' : 'Bright';
  if (value === colorSchema) return;
  colorSchema = value;
  listeners.forEach((l) => l());
}

export function useColorSchema(): ColorSchema {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => colorSchema,
  );
}

/** Applies the profile's color scheme and language to the interface. */
export function applyProfilePreferences(user: Pick<UserInfo, 'color_schema' | 'language'>): Promise<void> {
  setColorSchema(user.color_schema);
  const lng = languageCodeOfName(user.language);
  return lng && lng !== currentLanguage() ? changeLanguage(lng) : Promise.resolve();
}
