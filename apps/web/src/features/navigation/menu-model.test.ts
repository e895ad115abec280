import {
  ABILITIES,
  type Ability,
  canOpenPage,
  isPageAllowed,
  type Message,
  type OperationId,
  PAGE_CALLS,
  PAGES,
  type PageName,
  ROUTES,
  routePermissions,
} from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { findAppPath, paths } from '../../config/paths';
import {
  buildMenu,
  countUnreadMessages,
  latestMessages,
  MENU_CALLS,
  MENU_PAGES,
  visibleMenuIds,
} from './menu-model';

const ALWAYS = ['home', 'recipient'];

/** Spec §6, one row per rule: abilities (and fortnoxSetting) → the entries that are visible. */
const TABLE: {
  name: string;
  abilities: Ability[];
  fortnox?: { active: boolean } | null;
  visible: string[];
}[] = [
  { name: 'no abilities: only home and recipient', abilities: [], visible: ALWAYS },
  {
    name: 'register invoice',
    abilities: ['limited_register_invoice'],
    visible: [...ALWAYS, 'registerInvoice'],
  },
  {
    name: 'upload invoice',
    abilities: ['limited_register_invoice_upload'],
    visible: [...ALWAYS, 'uploadInvoice'],
  },
  {
    name: 'file upload',
    abilities: ['limited_register_invoice_file_upload'],
    visible: [...ALWAYS, 'fileUpload'],
  },
  {
    name: 'contract financing: installment register and plans',
    abilities: ['limited_contract_financing'],
    visible: [...ALWAYS, 'registerInstallment', 'installmentPlans'],
  },
  {
    name: 'invoices: all invoices, transfer costs, articles',
    abilities: ['limited_invoices'],
    visible: [...ALWAYS, 'allInvoices', 'transferCosts', 'articles'],
  },
  {
    name: 'transfer costs alone gives the same history entries',
    abilities: ['limited_transfercosts'],
    visible: [...ALWAYS, 'allInvoices', 'transferCosts', 'articles'],
  },
  {
    name: 'send invoice without fortnox',
    abilities: ['limited_send_invoice'],
    visible: [...ALWAYS, 'pendingInvoices'],
  },
  {
    name: 'send invoice with fortnox shows business invoices',
    abilities: ['limited_send_invoice'],
    fortnox: { active: true },
    visible: [...ALWAYS, 'pendingInvoices', 'pendingBusinessInvoices'],
  },
  {
    name: 'fortnox without send invoice shows nothing',
    abilities: [],
    fortnox: { active: true },
    visible: ALWAYS,
  },
  {
    name: 'report payments: the payments report and both downloads',
    abilities: ['limited_report_payments'],
    visible: [...ALWAYS, 'payments', 'activeInvoicesDownload', 'activeRegressDownload'],
  },
  {
    name: 'report ledger: the ledger and both downloads',
    abilities: ['limited_report_ledger'],
    visible: [...ALWAYS, 'ledger', 'activeInvoicesDownload', 'activeRegressDownload'],
  },
  {
    name: 'both report abilities: every report',
    abilities: ['limited_report_payments', 'limited_report_ledger'],
    visible: [...ALWAYS, 'payments', 'ledger', 'activeInvoicesDownload', 'activeRegressDownload'],
  },
  {
    name: 'fortnox bookkeeping hides the ledger',
    abilities: ['limited_report_payments', 'limited_report_ledger', 'limited_fortnox_bookkeeping'],
    visible: [...ALWAYS, 'payments', 'activeInvoicesDownload', 'activeRegressDownload'],
  },
  {
    name: 'verify bank account',
    abilities: ['limited_verify_bank_account'],
    visible: [...ALWAYS, 'verifyBankAccount'],
  },
];

describe('buildMenu visibility (spec §6)', () => {
  it.each(TABLE)('$name', ({ abilities, fortnox = null, visible }) => {
    const ids = visibleMenuIds(buildMenu({ abilities, fortnoxSetting: fortnox }));
    expect([...ids].sort()).toEqual([...visible].sort());
  });

  it('keeps the menu order of spec §2 with every ability', () => {
    const menu = buildMenu({
      abilities: [
        'limited_register_invoice',
        'limited_contract_financing',
        'limited_invoices',
        'limited_send_invoice',
        'limited_report_payments',
        'limited_verify_bank_account',
      ],
      fortnoxSetting: { active: true },
    });
    expect(menu.map((g) => g.id)).toEqual([
      'home',
      'register',
      'invoices',
      'installmentPlans',
      'reports',
      'administration',
      'recipient',
    ]);
  });

  it('an inactive fortnox integration keeps the entry with an explanatory note', () => {
    const menu = buildMenu({ abilities: ['limited_send_invoice'], fortnoxSetting: { active: false } });
    const item = menu.flatMap((g) => g.items).find((i) => i.id === 'pendingBusinessInvoices');
    expect(item?.noteKey).toBe('layout:menu.fortnox_inactive');
    const active = buildMenu({ abilities: ['limited_send_invoice'], fortnoxSetting: { active: true } });
    expect(
      active.flatMap((g) => g.items).find((i) => i.id === 'pendingBusinessInvoices')?.noteKey,
    ).toBeUndefined();
  });

  it('download entries are actions, not links', () => {
    const items = buildMenu({ abilities: ['limited_report_payments'], fortnoxSetting: null }).flatMap(
      (g) => g.items,
    );
    expect(items.find((i) => i.id === 'activeInvoicesDownload')?.action).toBe('downloadActiveInvoices');
    expect(items.find((i) => i.id === 'activeRegressDownload')?.action).toBe('openActiveRegress');
  });
});

function message(overrides: Partial<Message>): Message {
  return {
    messageID: 'm',
    messageType: '4',
    authorID: 'other',
    invoiceID: null,
    invoiceNumber: null,
    author: 'Support',
    date: '2026-01-01T00:00:00Z',
    title: 'Hi',
    message: 'Hello',
    read: false,
    ...overrides,
  };
}

describe('unread message count (spec §3)', () => {
  it.each([
    ['counts an unread type 4 from someone else', message({}), 1],
    ['skips a read message', message({ read: true }), 0],
    ['skips another type', message({ messageType: '3' }), 0],
    ['skips the user’s own message', message({ authorID: 'u1' }), 0],
    ['counts a message without author', message({ authorID: null }), 1],
  ])('%s', (_name, m, expected) => {
    expect(countUnreadMessages([m], 'u1')).toBe(expected);
  });

  it('lists the newest messages first', () => {
    const list = [
      message({ messageID: 'a', date: '2026-01-01' }),
      message({ messageID: 'b', date: '2026-02-01' }),
    ];
    expect(latestMessages(list, 1).map((m) => m.messageID)).toEqual(['b']);
  });
});

describe('one table for pages, menu entries and calls (contracts PAGES and ROUTES, issue #12)', () => {
  const apiAllows = (abilities: readonly Ability[], id: OperationId) => {
    const keys = routePermissions(ROUTES[id]);
    return keys.length === 0 || keys.some((k) => abilities.includes(k));
  };
  const everything = buildMenu({
    abilities: ABILITIES.filter((a) => a !== 'limited_fortnox_bookkeeping'),
    fortnoxSetting: { active: true },
  });
  const everyEntry = [...everything.filter((g) => g.to), ...everything.flatMap((g) => g.items)];

  it('every menu entry names a page of the table (a link) or a call of the route table (an action)', () => {
    expect(everyEntry.length).toBeGreaterThan(10);
    for (const entry of everyEntry) {
      if (entry.to) {
        const page = MENU_PAGES[entry.id];
        expect(page, entry.id).toBeDefined();
        if (page) expect(entry.to, entry.id).toBe(paths[page].path);
        expect(findAppPath(entry.to), entry.id).toBeDefined();
      } else {
        expect(MENU_CALLS[entry.id], entry.id).toBeDefined();
      }
    }
  });

  it('every page has a link builder that leads back to it, and every link is a page', () => {
    expect(Object.keys(paths).sort()).toEqual(Object.keys(PAGES).sort());
    for (const [name, page] of Object.entries(PAGES) as [PageName, (typeof PAGES)[PageName]][]) {
      const getHref = paths[name].getHref as (param?: string) => string;
      const href = getHref('x1');
      expect(findAppPath(href.split('?')[0] ?? ''), name).toBe(paths[name]);
      expect(paths[name].abilities, name).toBe(page.abilities);
    }
  });

  // Every single ability and every pair of them.
  const sets: Ability[][] = ABILITIES.flatMap((a, i) => [[a], ...ABILITIES.slice(i + 1).map((b) => [a, b])]);

  it.each(sets.map((abilities) => [abilities.join(' + '), abilities] as const))('%s', (_, abilities) => {
    const menu = buildMenu({ abilities, fortnoxSetting: { active: true } });
    const visible = new Set(visibleMenuIds(menu));
    // A shown entry opens its page past the guard, and the page's own call answers.
    for (const entry of [...menu.filter((g) => g.to), ...menu.flatMap((g) => g.items)]) {
      const page = entry.to ? findAppPath(entry.to) : undefined;
      if (page) {
        expect(isPageAllowed(abilities, page), `guard of ${entry.id}`).toBe(true);
        const call = PAGE_CALLS[MENU_PAGES[entry.id] as PageName];
        if (call) expect(apiAllows(abilities, call), `call of ${entry.id}`).toBe(true);
      }
      const call = MENU_CALLS[entry.id];
      if (call) expect(apiAllows(abilities, call), `${call} for ${entry.id}`).toBe(true);
    }
    // And the other way: a page these abilities open has its entry shown, but for spec §6's ledger rule.
    for (const [id, page] of Object.entries(MENU_PAGES)) {
      const hidden = id === 'ledger' && abilities.includes('limited_fortnox_bookkeeping');
      expect(visible.has(id), id).toBe(canOpenPage(abilities, PAGES[page]) && !hidden);
    }
  });
});
