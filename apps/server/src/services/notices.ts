import { COUNTED_MESSAGE_TYPE, type Message } from '@portal/contracts';
import { type Currency, formatMoney } from '@portal/domain/money';
import { LOCALES, type Locale, translate } from '@portal/i18n';
import { and, eq, isNull, ne, or, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { messages } from '../db/schema';

/**
 * Messages we write ourselves (issue #11): stored as a code with its parameters, and worded when they
 * are read, in the reader's language; the title and text stored beside them are the issuer's language
 * (for the back office, and for readers of an older build). Every message of our side, a notice or
 * one an operator wrote, is signed with one name: the `notices.author` of the reader's language.
 */
export type Notice =
  | {
      code: 'settlement';
      params: { number: number; rows: number; payoutDate: string; amountMinor: number; currency: Currency };
    }
  | {
      code: 'creditDecision.approved' | 'creditDecision.rejected';
      params: { invoiceNumber: string; recipient: string; reason: string };
    }
  | { code: 'reminderSent'; params: { invoiceNumber: string; recipient: string } }
  | { code: 'welcome'; params: Record<string, never> }
  | { code: 'bankAccountVerified'; params: { account: string; bank: string } }
  | { code: 'bankAccountChanged'; params: { account: string; bank: string; previous: string } }
  | {
      code: 'debtClaim';
      params: {
        number: number;
        rows: number;
        amountMinor: number;
        currency: Currency;
        dueDate: string;
        ocr: string;
        bankgiro: string;
      };
    }
  | {
      code: 'debtClaimReminder';
      params: {
        number: number;
        reminder: number;
        amountMinor: number;
        currency: Currency;
        dueDate: string;
        ocr: string;
        bankgiro: string;
      };
    };
export type NoticeCode = Notice['code'];
const NOTICE_CODES: readonly NoticeCode[] = [
  'settlement',
  'creditDecision.approved',
  'creditDecision.rejected',
  'reminderSent',
  'welcome',
  'bankAccountVerified',
  'bankAccountChanged',
  'debtClaim',
  'debtClaimReminder',
];

type MessageRow = typeof messages.$inferSelect;

/** The values a notice's texts are filled with, amounts formatted for `locale`. */
function valuesOf(notice: Notice, locale: Locale): Record<string, string | number> {
  if (notice.code === 'settlement' || notice.code === 'debtClaim' || notice.code === 'debtClaimReminder') {
    const { amountMinor, currency, ...rest } = notice.params;
    return { ...rest, amount: formatMoney(amountMinor, currency, locale) };
  }
  return notice.params;
}

/** A notice's title and text in `locale`. */
export function wordNotice(notice: Notice, locale: Locale): { title: string; text: string } {
  const values = valuesOf(notice, locale);
  return {
    title: translate(locale, 'notices', `${notice.code}.title`, values),
    text: translate(locale, 'notices', `${notice.code}.text`, values),
  };
}

/** The columns of a new message row holding `notice`, worded in the issuer's language. */
export function noticeColumns(notice: Notice, issuerLocale: Locale) {
  return {
    messageType: COUNTED_MESSAGE_TYPE,
    authorUserId: null,
    author: translate(issuerLocale, 'notices', 'author'),
    code: notice.code,
    params: notice.params,
    ...wordNotice(notice, issuerLocale),
  };
}

/** The stored notice of a row, when it is one this build can word. */
function noticeOf(m: MessageRow): Notice | null {
  if (!m.code || !NOTICE_CODES.includes(m.code as NoticeCode) || !m.params) return null;
  return { code: m.code, params: m.params } as Notice;
}

export interface Reader {
  userId: string;
  language: Locale;
}

/**
 * A message as `reader` sees it: a notice worded in the reader's language, our side signed with one
 * name, and unread only as the header counts it, so that the header, the page's count and the items
 * agree (the reader's own message is never unread, whatever its stored flag says).
 */
export function toMessage(m: MessageRow, reader: Reader): Message {
  const notice = noticeOf(m);
  const worded = notice ? wordNotice(notice, reader.language) : { title: m.title, text: m.text };
  return {
    messageID: m.id,
    messageType: m.messageType,
    authorID: m.authorUserId,
    invoiceID: m.invoiceId,
    invoiceNumber: m.invoiceNumber,
    author: m.authorUserId === null ? translate(reader.language, 'notices', 'author') : m.author,
    date: m.date.toISOString(),
    title: worded.title,
    message: worded.text,
    // Unread is one rule everywhere (spec §3, the header's count): a type '4' message someone else
    // wrote that nobody has opened. The reader's own message, or one of another type, is read.
    read: !(m.messageType === COUNTED_MESSAGE_TYPE && !m.read && m.authorUserId !== reader.userId),
  };
}

/**
 * The language a request asks for: the first of its `Accept-Language` (the web sends the language of
 * its screen) that the portal has, by full tag or by its language part (`fi` → fi-FI); null if none.
 */
export function headerLanguage(request: FastifyRequest): Locale | null {
  const header = request.headers['accept-language'];
  if (typeof header !== 'string') return null;
  const tags = header
    .split(',')
    .map((part) => part.split(';')[0]?.trim().toLowerCase() ?? '')
    .filter((tag) => tag !== '' && tag !== '*');
  for (const tag of tags) {
    const found =
      LOCALES.find((l) => l.toLowerCase() === tag) ??
      LOCALES.find((l) => l.slice(0, 2).toLowerCase() === tag.slice(0, 2));
    if (found) return found;
  }
  return null;
}

/** The reader's language: the request's, else the user's stored choice, else sv-SE. */
export function readerLanguage(request: FastifyRequest, stored: Locale | null): Locale {
  return headerLanguage(request) ?? stored ?? 'sv-SE';
}

/**
 * The messages a user counts unread (spec §3: type '4', written by someone else), as SQL; the
 * contracts' `isUnreadMessage` is the same rule over an answer's messages.
 */
export function unreadFor(userId: string): SQL {
  return and(
    eq(messages.messageType, COUNTED_MESSAGE_TYPE),
    eq(messages.read, false),
    or(isNull(messages.authorUserId), ne(messages.authorUserId, userId)),
  ) as SQL;
}
