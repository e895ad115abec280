/**
 * The persisted client state of spec §3: each item under its own localStorage key, as JSON.
 * `default_language` is the saved language applied at startup (spec §9).
 */
export const STORAGE_KEYS = {
  user: 'user',
  token: 'token',
  language: 'language',
  group: 'group',
  recipient: 'recipient',
  messages: 'messages',
  defaultLanguage: 'default_language',
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/** Reads a JSON value; a missing, unreadable or corrupt item gives null. */
export function readStored<T>(key: StorageKey): T | null {
  try {
    const raw = window.localStorage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch {
    return null;
  }
}

/** Writes a JSON value; null or undefined removes the item. */
export function writeStored(key: StorageKey, value: unknown): void {
  try {
    if (value === null || value === undefined) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or a full quota: the session then lives in memory only.
  }
}
