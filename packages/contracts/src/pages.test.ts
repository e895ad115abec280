import { describe, expect, it } from 'vitest';
import { ABILITIES } from './abilities';
import { canOpenPage, PAGE_CALLS } from './page-calls';
import { isPageAllowed, PAGES, type PageName } from './pages';
import { ROUTES, routePermissions } from './routes';

const rows = Object.entries(PAGES) as [PageName, (typeof PAGES)[PageName]][];

describe('PAGES: which ability opens which page', () => {
  it('has every route of spec §2, each path once', () => {
    const specPaths = [
      '/login',
      '/:groupid/login',
      '/password/reset/:hash',
      '/',
      '/invoice/register',
      '/invoice/fileupload',
      '/invoice/upload',
      '/invoice/edit/:id',
      '/invoice/send',
      '/invoice/send-business',
      '/recipient',
      '/installmentplans',
      '/invoices',
      '/invoices/duplicate/:id',
      '/transfercosts',
      '/reports/payments',
      '/reports/ledger',
      '/invoice/messages',
      '/installment/register',
      '/articles',
      '/verify-bank-account',
      '/verify-bank-account-success',
      '/403',
    ];
    const paths: string[] = rows.map(([, page]) => page.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.filter((p) => !specPaths.includes(p))).toEqual(['/installmentplans/:id', '/invoices/:id']);
    expect(specPaths.filter((p) => !paths.includes(p))).toEqual([]);
  });

  it.each(rows)('%s names known abilities and has exactly those of the call that loads it', (name, page) => {
    for (const ability of page.abilities) expect(ABILITIES).toContain(ability);
    expect(new Set(page.abilities).size).toBe(page.abilities.length);
    const call = PAGE_CALLS[name];
    if (call) {
      const route = ROUTES[call];
      expect(route.auth).toBe('session');
      expect([...page.abilities].sort()).toEqual([...routePermissions(route)].sort());
    }
  });

  it('names the call of every signed-in page but those that have none yet', () => {
    const withoutCall = rows.filter(([name]) => !PAGE_CALLS[name]).map(([name]) => name);
    expect(withoutCall.sort()).toEqual(
      [
        'login',
        'groupLogin',
        'passwordReset',
        'forbidden',
        // The Fortnox business invoices' page has no call of its own yet.
        'invoiceSendBusiness',
      ].sort(),
    );
  });

  it.each([
    ['no abilities loaded yet: the guard blocks nothing', [], 'invoiceRegister', true, false],
    ['the page ability held', ['limited_register_invoice'], 'invoiceRegister', true, true],
    ['another ability only', ['limited_invoices'], 'invoiceRegister', false, false],
    ['one of several', ['limited_transfercosts'], 'invoices', true, true],
    ['a page without abilities', ['limited_invoices'], 'recipient', true, true],
    ['a page without abilities, nothing loaded', [], 'home', true, true],
    ['the detail page for the history abilities', ['limited_transfercosts'], 'invoiceDetail', true, true],
  ] as const)('%s', (_name, abilities, name, allowed, open) => {
    expect(isPageAllowed(abilities, PAGES[name])).toBe(allowed);
    expect(canOpenPage(abilities, PAGES[name])).toBe(open);
  });
});
