import type { Group, Language, Message, User } from '@portal/contracts';
import { useSyncExternalStore } from 'react';
import { readStored, STORAGE_KEYS, writeStored } from './storage';

/**
 * Shared client state (spec §3): user, token, language, group, recipient and messages, all persisted.
 * The abilities and the issuer are not kept here: they are read from the `self` query (`useSelf`,
 * and the root layout's `AbilitiesContext` for the guards), the one copy that is always fresh.
 */
export interface SessionState {
  user: User | null;
  token: string | null;
  language: Language | null;
  /** The login group (id plus branding) of the last group login, used to return there on logout. */
  group: Group | null;
  /** The recipient chosen last; the recipient screens land in a later issue. */
  recipient: unknown;
  messages: Message[];
}

const PERSISTED = ['user', 'token', 'language', 'group', 'recipient', 'messages'] as const;

function load(): SessionState {
  return {
    user: readStored<User>(STORAGE_KEYS.user),
    token: readStored<string>(STORAGE_KEYS.token),
    language: readStored<Language>(STORAGE_KEYS.language),
    group: readStored<Group>(STORAGE_KEYS.group),
    recipient: readStored<unknown>(STORAGE_KEYS.recipient),
    messages: readStored<Message[]>(STORAGE_KEYS.messages) ?? [],
  };
}

let state: SessionState = load();
const listeners = new Set<() => void>();

export function getSession(): SessionState {
  return state;
}

/** Merges a change into the state and persists the persisted parts that changed. */
export function updateSession(patch: Partial<SessionState>): void {
  state = { ...state, ...patch };
  for (const key of PERSISTED) {
    if (key in patch) writeStored(STORAGE_KEYS[key], state[key]);
  }
  for (const listener of listeners) listener();
}

/** Ends the session (logout, or a 401 of spec §4): language and login group stay. */
export function clearSession(): void {
  updateSession({ user: null, token: null, messages: [], recipient: null });
}

/** Re-reads localStorage; tests use it after seeding storage. */
export function reloadSessionFromStorage(): void {
  state = load();
  for (const listener of listeners) listener();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Subscribes a component to one slice of the shared state. */
export function useSession<T>(select: (s: SessionState) => T): T {
  return useSyncExternalStore(
    subscribeSession,
    () => select(state),
    () => select(state),
  );
}

export function isSignedIn(s: SessionState = state): boolean {
  return Boolean(s.token && s.user);
}
