import {
  type Ability,
  COUNTED_MESSAGE_TYPE,
  canOpenPage,
  type FortnoxSetting,
  type Message,
  type OperationId,
  PAGES,
  type PageName,
  ROUTES,
  routePermissions,
} from '@portal/contracts';

export type MenuAction = 'downloadActiveInvoices' | 'openActiveRegress';

export interface MenuLink {
  id: string;
  /** Translation key in the layout namespace. */
  labelKey: string;
  to?: string;
  action?: MenuAction;
  /** An explanatory note shown with the entry (spec §6: an inactive ERP integration). */
  noteKey?: string;
}

export interface MenuGroup {
  id: string;
  labelKey: string;
  /** A top-level link; otherwise a dropdown of `items`. */
  to?: string;
  items: MenuLink[];
}

export interface MenuInput {
  abilities: readonly Ability[];
  fortnoxSetting: FortnoxSetting | null;
}

/** An entry that opens a page: shown when the page's abilities (contracts `PAGES`) open it. */
interface PageEntry {
  id: string;
  labelKey: string;
  page: PageName;
  /** A further condition of spec §6 beyond the page's abilities. */
  onlyWhen?: (input: MenuInput) => boolean;
  noteKey?: (input: MenuInput) => string | undefined;
}

/** An entry that runs an action: shown when the abilities allow the call it makes (contracts `ROUTES`). */
interface ActionEntry {
  id: string;
  labelKey: string;
  action: MenuAction;
  call: OperationId;
}

type EntrySpec = PageEntry | ActionEntry;

interface GroupSpec {
  id: string;
  labelKey: string;
  /** A top-level link to a page; otherwise a dropdown of `entries`. */
  page?: PageName;
  entries: readonly EntrySpec[];
}

/** A top-level link to a page. */
function topLink(id: string, labelKey: string, page: PageName): GroupSpec {
  return { id, labelKey, page, entries: [] };
}

/** A dropdown of entries; left out when none of them shows. */
function dropdown(id: string, labelKey: string, entries: readonly EntrySpec[]): GroupSpec {
  return { id, labelKey, entries };
}

/** An entry that opens a page, with the further conditions of spec §6 where it has them. */
function link(
  id: string,
  labelKey: string,
  page: PageName,
  rules: Pick<PageEntry, 'onlyWhen' | 'noteKey'> = {},
): PageEntry {
  return { id, labelKey, page, ...rules };
}

/** An entry that runs an action, shown when the abilities allow the call it makes. */
function action(
  id: string,
  labelKey: string,
  menuAction: MenuAction,
  { call }: { call: OperationId },
): ActionEntry {
  return { id, labelKey, action: menuAction, call };
}

/**
 * The top menu of spec §2. Which entry shows is never written here: a link shows when its page opens
 * for the abilities (the same `PAGES` row the route guard reads), an action when its call is allowed,
 * plus the two rules of spec §6 that are not abilities of a page (the Fortnox setting, the Fortnox
 * bookkeeping that hides the ledger).
 */
const MENU: readonly GroupSpec[] = [
  topLink('home', 'layout:menu.home', 'home'),
  dropdown('register', 'layout:menu.register', [
    link('registerInvoice', 'layout:menu.register_invoice', 'invoiceRegister'),
    link('uploadInvoice', 'layout:menu.upload_invoice', 'invoiceUpload'),
    link('fileUpload', 'layout:menu.file_upload', 'invoiceFileUpload'),
    link('registerInstallment', 'layout:menu.register_installment', 'installmentRegister'),
  ]),
  dropdown('invoices', 'layout:menu.invoices', [
    link('allInvoices', 'layout:menu.all_invoices', 'invoices'),
    link('pendingInvoices', 'layout:menu.pending_invoices', 'invoiceSend'),
    link('pendingBusinessInvoices', 'layout:menu.pending_business_invoices', 'invoiceSendBusiness', {
      // Spec §6: the fortnoxSetting on the user shows this entry; an inactive integration explains itself.
      onlyWhen: ({ fortnoxSetting }) => fortnoxSetting !== null,
      noteKey: ({ fortnoxSetting }) =>
        fortnoxSetting?.active === false ? 'layout:menu.fortnox_inactive' : undefined,
    }),
  ]),
  topLink('installmentPlans', 'layout:menu.installment_plans', 'installmentPlans'),
  dropdown('reports', 'layout:menu.reports', [
    link('transferCosts', 'layout:menu.transfer_costs', 'transferCosts'),
    link('payments', 'layout:menu.payments', 'reportsPayments'),
    link('ledger', 'layout:menu.ledger', 'reportsLedger', {
      // Spec §6: limited_fortnox_bookkeeping hides the ledger report entry.
      onlyWhen: ({ abilities }) => !abilities.includes('limited_fortnox_bookkeeping'),
    }),
    action('activeInvoicesDownload', 'layout:menu.active_invoices_download', 'downloadActiveInvoices', {
      call: 'downloadActiveInvoices',
    }),
    action('activeRegressDownload', 'layout:menu.active_regress_download', 'openActiveRegress', {
      call: 'downloadActiveRegress',
    }),
  ]),
  dropdown('administration', 'layout:menu.administration', [
    link('articles', 'layout:menu.articles', 'articles'),
    link('verifyBankAccount', 'layout:menu.verify_bank_account', 'verifyBankAccount'),
  ]),
  topLink('recipient', 'layout:menu.recipient', 'recipient'),
];

/** The page each link entry and top-level group of the menu opens, by menu id; tests read the table through it. */
export const MENU_PAGES: Readonly<Record<string, PageName>> = Object.fromEntries(
  MENU.flatMap((group) => [
    ...(group.page ? [[group.id, group.page] as const] : []),
    ...group.entries.flatMap((entry) => ('page' in entry ? [[entry.id, entry.page] as const] : [])),
  ]),
);

/** The call of each action entry, by menu id. */
export const MENU_CALLS: Readonly<Record<string, OperationId>> = Object.fromEntries(
  MENU.flatMap((group) =>
    group.entries.flatMap((entry) => ('call' in entry ? [[entry.id, entry.call] as const] : [])),
  ),
);

function entryOf(spec: EntrySpec, input: MenuInput): MenuLink | null {
  if ('call' in spec) {
    const open = canOpenPage(input.abilities, { abilities: routePermissions(ROUTES[spec.call]) });
    return open ? { id: spec.id, labelKey: spec.labelKey, action: spec.action } : null;
  }
  if (!canOpenPage(input.abilities, PAGES[spec.page]) || spec.onlyWhen?.(input) === false) return null;
  const noteKey = spec.noteKey?.(input);
  return {
    id: spec.id,
    labelKey: spec.labelKey,
    to: PAGES[spec.page].path,
    ...(noteKey ? { noteKey } : {}),
  };
}

/**
 * The top menu of spec §2 with the visibility rules of spec §6. Home and Recipient are always shown
 * (their pages need no ability); a dropdown with no visible entry is left out.
 */
export function buildMenu(input: MenuInput): MenuGroup[] {
  return MENU.flatMap((group): MenuGroup[] => {
    if (group.page) {
      if (!canOpenPage(input.abilities, PAGES[group.page])) return [];
      return [{ id: group.id, labelKey: group.labelKey, to: PAGES[group.page].path, items: [] }];
    }
    const items = group.entries.flatMap((spec) => entryOf(spec, input) ?? []);
    return items.length > 0 ? [{ id: group.id, labelKey: group.labelKey, items }] : [];
  });
}

/** The ids of every visible entry, groups and items; the table test reads the menu through it. */
export function visibleMenuIds(menu: readonly MenuGroup[]): string[] {
  return menu.flatMap((group) => (group.to ? [group.id] : group.items.map((item) => item.id)));
}

/**
 * The header's unread count (spec §3): type '4' messages that another author wrote and the user
 * has not read.
 */
export function countUnreadMessages(messages: readonly Message[], userID: string): number {
  return messages.filter((m) => m.messageType === COUNTED_MESSAGE_TYPE && m.authorID !== userID && !m.read)
    .length;
}

/** The newest messages first, at most `limit`. */
export function latestMessages(messages: readonly Message[], limit: number): Message[] {
  return [...messages].sort((a, b) => b.date.localeCompare(a.date)).slice(0, limit);
}
