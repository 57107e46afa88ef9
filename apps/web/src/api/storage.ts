import { STORAGE_KEYS, type UserInfo } from '@lectern/shared';

/**
 * Browser storage of the session (SPEC §1): the Authorization header value, the same token under
 * `Token`, the user object under `userInfo`, and the chosen language under `lng`.
 */

/** The `auth` query parameter of a page address, if any (SPEC §2). */
export function authFromUrl(search: string = window.location.search): string | null {
  const value = new URLSearchParams(search).get('auth');
  return value && value.trim().length > 0 ? value.trim() : null;
}

export function getStoredAuthorization(): string | null {
  return localStorage.getItem(STORAGE_KEYS.authorization);
}

/** The credential for the next request: the address's `auth` parameter first, else the stored one. */
export function currentAuthorization(): string | null {
  return authFromUrl() ?? getStoredAuthorization();
}

export function hasCredential(): boolean {
  return currentAuthorization() !== null;
}

export function storeAuthorization(token: string): void {
  localStorage.setItem(STORAGE_KEYS.authorization, token);
  localStorage.setItem(STORAGE_KEYS.token, token);
}

export function storeUserInfo(user: UserInfo): void {
  localStorage.setItem(STORAGE_KEYS.userInfo, JSON.stringify(user));
}

export function getStoredUserInfo(): UserInfo | null {
  const raw = localStorage.getItem(STORAGE_KEYS.userInfo);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as UserInfo;
  } catch {
    return null;
  }
}

/** Signs the browser out: every stored credential goes, the language choice stays. */
export function clearSession(): void {
  localStorage.removeItem(STORAGE_KEYS.authorization);
  localStorage.removeItem(STORAGE_KEYS.token);
  localStorage.removeItem(STORAGE_KEYS.userInfo);
}

/**
 * Takes the credential out of the page address: stores it and removes `auth` from the URL so it is not
 * bookmarked or shared by accident. Returns whether the address carried one.
 */
export function captureAuthFromUrl(): boolean {
  const token = authFromUrl();
  if (!token) return false;
  storeAuthorization(token);
  const url = new URL(window.location.href);
  url.searchParams.delete('auth');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return true;
}
