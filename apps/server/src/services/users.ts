import {
  DEFAULT_LANGUAGE,
  type Group,
  type Issuer,
  type Language,
  type Self,
  type TaxRate,
  type User,
} from '@portal/contracts';
import type { Locale } from '@portal/i18n';
import { and, desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { firstOrNull } from '../db/first-row';
import { groups, issuers, messages, users } from '../db/schema';
import { ApiError } from '../lib/errors';
import { unseal } from '../lib/tokens';
import { verifyTotp } from '../lib/totp';
import { toMessage, unreadFor } from './notices';
import { abilitiesOf } from './sessions';

type UserRow = typeof users.$inferSelect;
type IssuerRow = typeof issuers.$inferSelect;
type GroupRow = typeof groups.$inferSelect;

export function toUser(u: UserRow): User {
  return {
    userID: u.id,
    username: u.username,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    lastPasswordChange: u.lastPasswordChange?.toISOString() ?? null,
    force2fa: u.force2fa,
    twoFactorEnabled: u.totpSecret !== null,
    fortnoxSetting: u.fortnoxActive === null ? null : { active: u.fortnoxActive },
    groupID: u.groupId,
    language: u.language ?? null,
  };
}

export function toIssuer(i: IssuerRow): Issuer {
  return {
    issuerID: i.id,
    name: i.name,
    email: i.email,
    organizationNo: i.organizationNo,
    vat: i.vat,
    telephone: i.telephone,
    address: { address1: i.address1, city: i.city, zipcode: i.zipcode },
    country: i.country,
    bankAccountVerified: i.bankAccountVerified,
  };
}

export function toGroup(g: GroupRow): Group {
  return { id: g.id, name: g.name, logo: g.logo, background: g.background };
}

/**
 * VAT rates in force in 2026 per issuer country (basis points): Sweden 25, 12, 6 and 0 %; Finland
 * 25.5, 13.5, 10 and 0 % (13.5 % replaced 14 % on 1 Jan 2026, see ../shared/domain/vat-rot-rut.md).
 */
export const TAX_RATES: Record<'SE' | 'FI', TaxRate[]> = {
  SE: [2500, 1200, 600, 0].map((rateBasisPoints) => ({ rateBasisPoints })),
  FI: [2550, 1350, 1000, 0].map((rateBasisPoints) => ({ rateBasisPoints })),
};
/** Invoice currencies an issuer may use: its home currency first. */
export const CURRENCIES: Record<'SE' | 'FI', string[]> = { SE: ['SEK', 'EUR'], FI: ['EUR'] };

/** The newest messages shown in the header and the self answer. */
export const SELF_MESSAGE_LIMIT = 100;
/**
 * Unread messages older than those that the self answer carries as well, at most this many, so that
 * the header's count (spec §3, counted from these messages) is the messages page's.
 */
export const SELF_UNREAD_LIMIT = 500;

/** The language the user chose last (null: none yet). */
export async function storedLanguage(db: Db, userId: string): Promise<Locale | null> {
  const [u] = await db.select({ language: users.language }).from(users).where(eq(users.id, userId));
  return u?.language ?? null;
}

/**
 * The language of a user's files (reports, exports, templates) when the request names none: the one
 * the user chose last, else the portal's default, sv-SE.
 */
export async function languageOf(db: Db, userId: string): Promise<Language> {
  return (await storedLanguage(db, userId)) ?? DEFAULT_LANGUAGE;
}

/**
 * The issuer's name, organisation number and country: what a verified bank account or a connected
 * Fortnox company is matched against; null when there is no such issuer.
 */
export async function issuerIdentity(db: Db | Tx, issuerId: string) {
  return firstOrNull(
    db
      .select({ name: issuers.name, organizationNo: issuers.organizationNo, country: issuers.country })
      .from(issuers)
      .where(eq(issuers.id, issuerId)),
  );
}

export async function loadUser(db: Db | Tx, userId: string): Promise<UserRow> {
  const [u] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!u) throw new ApiError('auth.unauthorized');
  return u;
}

/**
 * `GET self`. `language` picks the reader's language from the user's stored one (the request's
 * `Accept-Language` first, see notices.ts `readerLanguage`); our notices are worded in it.
 */
export async function buildSelf(
  db: Db,
  userId: string,
  language: (stored: Locale | null) => Locale = (stored) => stored ?? 'sv-SE',
): Promise<Self> {
  const u = await loadUser(db, userId);
  const [issuer] = await db.select().from(issuers).where(eq(issuers.id, u.issuerId)).limit(1);
  if (!issuer) throw new ApiError('server.internal');
  const group = u.groupId
    ? ((await db.select().from(groups).where(eq(groups.id, u.groupId)).limit(1))[0] ?? null)
    : null;
  const [newest, unread] = await Promise.all([
    db
      .select()
      .from(messages)
      .where(eq(messages.issuerId, u.issuerId))
      .orderBy(desc(messages.date), desc(messages.id))
      .limit(SELF_MESSAGE_LIMIT),
    db
      .select()
      .from(messages)
      .where(and(eq(messages.issuerId, u.issuerId), unreadFor(u.id)))
      .orderBy(desc(messages.date), desc(messages.id))
      .limit(SELF_UNREAD_LIMIT),
  ]);
  const seen = new Set(newest.map((m) => m.id));
  const msgs = [...newest, ...unread.filter((m) => !seen.has(m.id))].sort(
    (a, b) => b.date.getTime() - a.date.getTime() || (a.id < b.id ? 1 : -1),
  );
  const reader = { userId: u.id, language: language(u.language ?? null) };
  return {
    ...toUser(u),
    abilities: await abilitiesOf(db, u.id),
    issuer: toIssuer(issuer),
    group: group ? toGroup(group) : null,
    taxRates: TAX_RATES[issuer.country],
    currencies: CURRENCIES[issuer.country],
    messages: msgs.map((m) => toMessage(m, reader)),
  };
}

/** Whether the user has two-factor turned on. */
export async function hasTwoFactor(db: Db | Tx, userId: string): Promise<boolean> {
  return (await loadUser(db, userId)).totpSecret !== null;
}

/**
 * Checks a two-factor code of the user and spends it: its time step is recorded, so the same code
 * (and any older one) is refused afterwards, as at sign-in. The user row is locked until the caller's
 * transaction ends, so two requests cannot both spend one code. False for a wrong or spent code;
 * `twoFactor.not_enabled` when the user has no two-factor.
 */
export async function spendTwoFactorCode(
  tx: Tx,
  secretKey: Buffer,
  userId: string,
  code: string,
  at: Date,
): Promise<boolean> {
  const [row] = await tx.select().from(users).where(eq(users.id, userId)).for('update').limit(1);
  if (!row) throw new ApiError('auth.unauthorized');
  if (row.totpSecret === null) throw new ApiError('twoFactor.not_enabled');
  const step = verifyTotp(unseal(secretKey, row.totpSecret), code, at.getTime(), row.totpLastStep);
  if (step === null) return false;
  await tx.update(users).set({ totpLastStep: step }).where(eq(users.id, userId));
  return true;
}
