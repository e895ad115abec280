import { PASSWORD_RESET_MAX_PER_WINDOW } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { bearer, MINUTE, resetTokenOf } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { DEMO_PASSWORD } from '../../db/seed/demo';

describe('password reset links', () => {
  const t = useTestApp({ resetEach: true });

  const ask = (username: string) =>
    t.app.inject({ method: 'POST', url: '/api/limited/password', payload: { username } });
  const useLink = (hash: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/limited/password/reset', payload: { hash, new: password } });

  it('sends a user only a few links per window, so an inbox cannot be flooded', async () => {
    for (let i = 0; i < PASSWORD_RESET_MAX_PER_WINDOW; i++) expect((await ask('demo')).statusCode).toBe(200);
    const flood = await ask('demo');
    expect(flood.statusCode).toBe(429);
    expect(flood.json().code).toBe('auth.too_many_attempts');
    expect(t.mailer.sent).toHaveLength(PASSWORD_RESET_MAX_PER_WINDOW);
    t.clock.advance(16 * MINUTE);
    expect((await ask('demo')).statusCode).toBe(200);
  });

  it('using one link ends the user’s other open links', async () => {
    await ask('demo');
    await ask('demo');
    const [older, newer] = t.mailer.sent.map((m) => resetTokenOf(m));
    expect((await useLink(newer ?? '', 'Nytt-Lösen-11')).statusCode).toBe(200);
    const stale = await useLink(older ?? '', 'Annat-Lösen-22');
    expect(stale.statusCode).toBe(404);
    expect(stale.json().code).toBe('password.reset_not_found');
  });

  it('a password change ends open reset links', async () => {
    await ask('demo');
    const link = resetTokenOf(t.mailer.sent.at(-1));
    const token = await t.login('demo');
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/limited/account',
      headers: bearer(token),
      payload: { old: DEMO_PASSWORD, new: 'Bytt-Lösen-33' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await useLink(link, 'Annat-Lösen-44')).statusCode).toBe(404);
  });
});
