import {
  type Ability,
  COUNTED_MESSAGE_TYPE,
  type FortnoxSetting,
  HISTORY_ABILITIES,
  hasAnyAbility,
  type Message,
  REPORT_ABILITIES,
} from '@portal/contracts';
import { paths } from '../../config/paths';

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

const HISTORY: readonly Ability[] = HISTORY_ABILITIES;
const REPORTS: readonly Ability[] = REPORT_ABILITIES;

function when(condition: boolean, link: MenuLink): MenuLink[] {
  return condition ? [link] : [];
}

/**
 * The top menu of spec §2 with the visibility rules of spec §6. Home and Recipient are always shown;
 * a dropdown with no visible entry is left out.
 */
export function buildMenu({ abilities, fortnoxSetting }: MenuInput): MenuGroup[] {
  const has = (...keys: Ability[]) => hasAnyAbility(abilities, keys);
  const canHistory = has(...HISTORY);
  const canReports = has(...REPORTS);
  const canSend = has('limited_send_invoice');

  const groups: MenuGroup[] = [
    { id: 'home', labelKey: 'layout:menu.home', to: paths.home.getHref(), items: [] },
    {
      id: 'register',
      labelKey: 'layout:menu.register',
      items: [
        ...when(has('limited_register_invoice'), {
          id: 'registerInvoice',
          labelKey: 'layout:menu.register_invoice',
          to: paths.invoiceRegister.getHref(),
        }),
        ...when(has('limited_register_invoice_upload'), {
          id: 'uploadInvoice',
          labelKey: 'layout:menu.upload_invoice',
          to: paths.invoiceUpload.getHref(),
        }),
        ...when(has('limited_register_invoice_file_upload'), {
          id: 'fileUpload',
          labelKey: 'layout:menu.file_upload',
          to: paths.invoiceFileUpload.getHref(),
        }),
        ...when(has('limited_contract_financing'), {
          id: 'registerInstallment',
          labelKey: 'layout:menu.register_installment',
          to: paths.installmentRegister.getHref(),
        }),
      ],
    },
    {
      id: 'invoices',
      labelKey: 'layout:menu.invoices',
      items: [
        ...when(canHistory, {
          id: 'allInvoices',
          labelKey: 'layout:menu.all_invoices',
          to: paths.invoices.getHref(),
        }),
        ...when(canSend, {
          id: 'pendingInvoices',
          labelKey: 'layout:menu.pending_invoices',
          to: paths.invoiceSend.getHref(),
        }),
        ...when(canSend && fortnoxSetting !== null, {
          id: 'pendingBusinessInvoices',
          labelKey: 'layout:menu.pending_business_invoices',
          to: paths.invoiceSendBusiness.getHref(),
          ...(fortnoxSetting?.active === false ? { noteKey: 'layout:menu.fortnox_inactive' } : {}),
        }),
      ],
    },
    ...(has('limited_contract_financing')
      ? [
          {
            id: 'installmentPlans',
            labelKey: 'layout:menu.installment_plans',
            to: paths.installmentPlans.getHref(),
            items: [],
          },
        ]
      : []),
    {
      id: 'reports',
      labelKey: 'layout:menu.reports',
      items: [
        ...when(canHistory, {
          id: 'transferCosts',
          labelKey: 'layout:menu.transfer_costs',
          to: paths.transferCosts.getHref(),
        }),
        // Each report screen needs its own ability (the server refuses its calls without it); the two
        // downloads either of them.
        ...when(has('limited_report_payments'), {
          id: 'payments',
          labelKey: 'layout:menu.payments',
          to: paths.reportsPayments.getHref(),
        }),
        ...when(has('limited_report_ledger') && !has('limited_fortnox_bookkeeping'), {
          id: 'ledger',
          labelKey: 'layout:menu.ledger',
          to: paths.reportsLedger.getHref(),
        }),
        ...when(canReports, {
          id: 'activeInvoicesDownload',
          labelKey: 'layout:menu.active_invoices_download',
          action: 'downloadActiveInvoices',
        }),
        ...when(canReports, {
          id: 'activeRegressDownload',
          labelKey: 'layout:menu.active_regress_download',
          action: 'openActiveRegress',
        }),
      ],
    },
    {
      id: 'administration',
      labelKey: 'layout:menu.administration',
      items: [
        ...when(canHistory, {
          id: 'articles',
          labelKey: 'layout:menu.articles',
          to: paths.articles.getHref(),
        }),
        ...when(has('limited_verify_bank_account'), {
          id: 'verifyBankAccount',
          labelKey: 'layout:menu.verify_bank_account',
          to: paths.verifyBankAccount.getHref(),
        }),
      ],
    },
    { id: 'recipient', labelKey: 'layout:menu.recipient', to: paths.recipient.getHref(), items: [] },
  ];
  return groups.filter((group) => group.to !== undefined || group.items.length > 0);
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
