import { describe, expect, it } from 'vitest';
import { afterLoginTarget, loginHrefFor } from './after-login';

describe('where a user lands after signing in', () => {
  it.each([
    ['/transfercosts', '/transfercosts'],
    ['/invoices?filter=overdue&page=2', '/invoices?filter=overdue&page=2'],
    ['/invoices/0190a7e0-0000-7000-8000-000000000001', '/invoices/0190a7e0-0000-7000-8000-000000000001'],
  ])('a screen of the app: %s', (next, target) => expect(afterLoginTarget(next)).toBe(target));

  it.each([
    [null],
    [''],
    ['transfercosts'],
    ['//evil.example/x'],
    ['/\\evil.example'],
    ['https://evil.example/'],
    ['javascript:alert(1)'],
    ['/login'],
    ['/acme/login'],
    ['/no-such-screen'],
  ])('anything else is the home page: %s', (next) => expect(afterLoginTarget(next)).toBe('/'));

  it('the login address carries the asked-for page, not the home page', () => {
    expect(loginHrefFor('/login', '/invoices', '?filter=paid')).toBe(
      '/login?next=%2Finvoices%3Ffilter%3Dpaid',
    );
    expect(loginHrefFor('/acme/login', '/transfercosts', '')).toBe('/acme/login?next=%2Ftransfercosts');
    expect(loginHrefFor('/login', '/', '')).toBe('/login');
  });
});
