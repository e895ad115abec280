import { PASSWORD_RESET_MAX_PER_WINDOW } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditLog, loginFailures } from '../src/db/schema';
import { DEMO_PASSWORD } from '../src/db/seed/demo';
import { usernameKey } from '../src/services/throttle';
import { MINUTE } from './support/test-app';
import { useTestApp } from './support/use-test-app';

const t = useTestApp({ resetEach: true });

function login(username: string, password: string, remoteAddress = '127.0.0.1') {
  return t.app.inject({
    method: 'POST',
    url: '/api/login/limited',
    payload: { username, password },
    remoteAddress,
  });
}

async function expectThrottled(
  res: Awaited<ReturnType<typeof login>>,
  retryAfterSeconds: number,
): Promise<void> {
  expect(res.statusCode).toBe(429);
  expect(res.headers['retry-after']).toBe(String(retryAfterSeconds));
  expect(res.json()).toEqual({ code: 'auth.too_many_attempts', retryAfterSeconds });
}

describe('per username', () => {
  beforeEach(() => {
    Object.assign(t.throttle, { perUsername: 3, perIp: 100, windowMinutes: 15 });
  });

  it('refuses the next sign-in after the limit, even with the right password', async () => {
    for (let i = 0; i < 3; i++) expect((await login('demo', 'Fel-lösen-1')).statusCode).toBe(401);
    await expectThrottled(await login('demo', DEMO_PASSWORD), 15 * 60);
    // The username is one key whatever its case, and from any address.
    await expectThrottled(await login('DEMO', DEMO_PASSWORD, '10.1.1.1'), 15 * 60);
    // Other users are not affected.
    expect((await login('demo-limited', DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('decides before any password check: a throttled try is neither counted nor failed', async () => {
    for (let i = 0; i < 3; i++) await login('demo', 'Fel-lösen-1');
    const failuresBefore = await t.db.select().from(loginFailures).where(eq(loginFailures.key, 'u:demo'));
    expect(failuresBefore).toHaveLength(3);
    for (let i = 0; i < 3; i++) await expectThrottled(await login('demo', DEMO_PASSWORD), 15 * 60);
    const failuresAfter = await t.db.select().from(loginFailures).where(eq(loginFailures.key, 'u:demo'));
    expect(failuresAfter).toHaveLength(3);
    const events = (await t.db.select({ event: auditLog.event }).from(auditLog)).map((r) => r.event);
    expect(events.filter((e) => e === 'login.failed')).toHaveLength(3);
    expect(events.filter((e) => e === 'login.throttled')).toHaveLength(3);
    expect(events).not.toContain('login.ok');
  });

  it('counts unknown usernames the same way', async () => {
    for (let i = 0; i < 3; i++) expect((await login('ghost', 'Fel-lösen-1')).statusCode).toBe(401);
    await expectThrottled(await login('ghost', 'Fel-lösen-1'), 15 * 60);
  });

  it('opens again as the window slides past the failures', async () => {
    await login('demo', 'Fel-lösen-1');
    t.clock.advance(MINUTE);
    await login('demo', 'Fel-lösen-1');
    t.clock.advance(MINUTE);
    await login('demo', 'Fel-lösen-1');
    // The oldest failure leaves the window 15 minutes after it happened: 13 minutes from now.
    await expectThrottled(await login('demo', DEMO_PASSWORD), 13 * 60);
    t.clock.advance(5 * MINUTE);
    await expectThrottled(await login('demo', DEMO_PASSWORD), 8 * 60);
    t.clock.advance(8 * MINUTE - 1000);
    await expectThrottled(await login('demo', DEMO_PASSWORD), 1);
    t.clock.advance(1000);
    expect((await login('demo', DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('starts counting again after a successful sign-in', async () => {
    for (let i = 0; i < 2; i++) await login('demo', 'Fel-lösen-1');
    expect((await login('demo', DEMO_PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await login('demo', 'Fel-lösen-1')).statusCode).toBe(401);
    // Four failures in the window, but only two since the success.
    expect((await login('demo', 'Fel-lösen-1')).statusCode).toBe(401);
    await expectThrottled(await login('demo', DEMO_PASSWORD), 15 * 60);
  });
});

describe('per client address', () => {
  beforeEach(() => {
    Object.assign(t.throttle, { perUsername: 100, perIp: 3, windowMinutes: 10 });
  });

  it('refuses an address that failed too often, for any username; other addresses go on', async () => {
    for (const name of ['a', 'b', 'c'])
      expect((await login(name, 'Fel-lösen-1', '10.0.0.1')).statusCode).toBe(401);
    await expectThrottled(await login('demo', DEMO_PASSWORD, '10.0.0.1'), 10 * 60);
    expect((await login('demo', DEMO_PASSWORD, '10.0.0.2')).statusCode).toBe(200);
    // A success elsewhere clears the username, not the address.
    await expectThrottled(await login('demo-limited', DEMO_PASSWORD, '10.0.0.1'), 10 * 60);
    t.clock.advance(10 * MINUTE);
    expect((await login('demo', DEMO_PASSWORD, '10.0.0.1')).statusCode).toBe(200);
  });
});

describe('default limits of the contracts', () => {
  it('allow five failures of a username, then answer 429', async () => {
    for (let i = 0; i < 5; i++) expect((await login('demo', 'Fel-lösen-1')).statusCode).toBe(401);
    await expectThrottled(await login('demo', DEMO_PASSWORD), 15 * 60);
  });
});

describe('reset requests for unknown names', () => {
  beforeEach(() => {
    Object.assign(t.throttle, { perUsername: 3, perIp: 100, windowMinutes: 15 });
  });
  const requestReset = (username: string) =>
    t.app.inject({ method: 'POST', url: '/api/limited/password', payload: { username } });

  it('count as failures, so guessing names is throttled too', async () => {
    for (let i = 0; i < 3; i++) expect((await requestReset('ghost')).statusCode).toBe(404);
    const res = await requestReset('ghost');
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe(String(15 * 60));
    expect(res.json()).toEqual({ code: 'auth.too_many_attempts', retryAfterSeconds: 15 * 60 });
    expect(t.mailer.sent).toHaveLength(0);
  });

  it('do not count for a known name', async () => {
    // As many links as a user may be sent: with a failure limit of 3 they would otherwise throttle.
    for (let i = 0; i < PASSWORD_RESET_MAX_PER_WINDOW; i++)
      expect((await requestReset('demo')).statusCode).toBe(200);
    expect(t.mailer.sent).toHaveLength(PASSWORD_RESET_MAX_PER_WINDOW);
    expect((await login('demo', DEMO_PASSWORD)).statusCode).toBe(200);
  });
});

describe('concurrent guesses', () => {
  /** Fires `n` sign-ins at once and tallies the answers: 401 is a password verdict, 429 a refusal. */
  async function burst(n: number, attempt: (i: number) => ReturnType<typeof login>) {
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => attempt(i)));
    for (const res of answers.filter((r) => r.statusCode === 429)) {
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json()).toMatchObject({ code: 'auth.too_many_attempts' });
    }
    return {
      verdicts: answers.filter((r) => r.statusCode === 401).length,
      refused: answers.filter((r) => r.statusCode === 429).length,
    };
  }

  it('get at most the limit of password verdicts per username, however many arrive at once', async () => {
    Object.assign(t.throttle, { perUsername: 5, perIp: 100, windowMinutes: 15 });
    const tally = await burst(20, (i) => login('demo', 'Fel-lösen-1', `10.2.0.${i + 1}`));
    expect(tally).toEqual({ verdicts: 5, refused: 15 });
    const failures = await t.db.select().from(loginFailures).where(eq(loginFailures.key, 'u:demo'));
    expect(failures).toHaveLength(5);
  });

  it('get at most the limit of password verdicts per address, whatever the usernames', async () => {
    Object.assign(t.throttle, { perUsername: 100, perIp: 5, windowMinutes: 15 });
    const tally = await burst(20, (i) => login(`guess-${i}`, 'Fel-lösen-1', '10.3.0.1'));
    expect(tally).toEqual({ verdicts: 5, refused: 15 });
  });

  it('count a concurrent success like any attempt, then give it back', async () => {
    Object.assign(t.throttle, { perUsername: 5, perIp: 100, windowMinutes: 15 });
    const answers = await Promise.all([
      login('demo', DEMO_PASSWORD, '10.4.0.1'),
      ...Array.from({ length: 9 }, () => login('demo', 'Fel-lösen-1', '10.4.0.1')),
    ]);
    const verdicts = answers.filter((r) => r.statusCode !== 429);
    // A success that got through clears the username's failures when it ends, so guesses claimed
    // after that are counted afresh: the limit holds for what stands counted, never more than 5.
    const userRows = await t.db
      .select()
      .from(loginFailures)
      .where(eq(loginFailures.key, usernameKey('demo')));
    expect(userRows.length).toBeLessThanOrEqual(5);
    // Without a success nothing was cleared, and at most 5 guesses got a verdict.
    if (answers[0]?.statusCode === 429) expect(verdicts.length).toBeLessThanOrEqual(5);
    // The address keeps no row for the success (if it got through), only for the failures.
    const ipRows = await t.db.select().from(loginFailures).where(eq(loginFailures.key, 'ip:10.4.0.1'));
    expect(ipRows).toHaveLength(verdicts.filter((r) => r.statusCode === 401).length);
  });
});
