import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createRecipient } from './factories';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app';

export interface UseTestAppOptions extends TestAppOptions {
  /** Back to the seeded state before every test (TestApp.reset). */
  resetEach?: boolean;
  /** How long the app may take to start (beforeAll's timeout), for files that run beside heavy ones. */
  startTimeoutMs?: number;
}

/**
 * One test app for the tests of the enclosing describe block (or of the file, at the top level):
 * made before the first test, reset before each with `resetEach`, closed after the last. The handle
 * stands for the app from the first hook on; reading it earlier (while the tests are collected) fails.
 */
export function useTestApp(opts: UseTestAppOptions = {}): TestApp {
  const { resetEach, startTimeoutMs, ...appOptions } = opts;
  let current: TestApp | undefined;
  const ready = (): TestApp => {
    if (!current) throw new Error('useTestApp: the app is made in beforeAll; use it in a hook or a test');
    return current;
  };
  beforeAll(async () => {
    current = await createTestApp(appOptions);
  }, startTimeoutMs);
  if (resetEach) beforeEach(() => ready().reset());
  afterAll(() => current?.close());
  return new Proxy({} as TestApp, { get: (_target, key) => Reflect.get(ready(), key) });
}

/**
 * Session tokens of demo users, by the names a test gives them (`{ demo: 'demo', other: 'demo-other' }`):
 * signed in once before the tests, or before each test with `each` (after the app's reset, which
 * ends every session).
 */
export function useLogins<K extends string>(
  t: TestApp,
  usernames: Record<K, string>,
  opts: { each?: boolean } = {},
): Readonly<Record<K, string>> {
  const tokens = {} as Record<K, string>;
  const signIn = async () => {
    for (const key of Object.keys(usernames) as K[]) tokens[key] = await t.login(usernames[key]);
  };
  if (opts.each) beforeEach(signIn);
  else beforeAll(signIn);
  return tokens;
}

/** `useTestApp` and `useLogins` in one call: the app, and the session tokens of the named demo users. */
export function useSignedInApp<K extends string>(
  usernames: Record<K, string>,
  opts: UseTestAppOptions & { loginEach?: boolean } = {},
): { t: TestApp; who: Readonly<Record<K, string>> } {
  const { loginEach, ...appOptions } = opts;
  const t = useTestApp(appOptions);
  return { t, who: useLogins(t, usernames, { each: loginEach }) };
}

/**
 * A recipient made by the user whose token `owner` gives, before the tests (after the sign-ins made
 * earlier in the block): the returned function gives its id in a hook or a test.
 */
export function useRecipient(
  t: TestApp,
  owner: () => string,
  extra: Record<string, unknown> = {},
): () => string {
  let id: string | undefined;
  beforeAll(async () => {
    id = await createRecipient(t, owner(), extra);
  });
  return () => {
    if (id === undefined) throw new Error('useRecipient: the recipient is made in beforeAll');
    return id;
  };
}
