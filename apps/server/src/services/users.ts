import type { Group, Issuer, Message, Self, TaxRate, User } from '@portal/contracts';
import { desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { groups, issuers, messages, users } from '../db/schema';
import { ApiError } from '../lib/errors';
import { abilitiesOf } from './sessions';

type UserRow = typeof users.$inferSelect;
type IssuerRow = typeof issuers.$inferSelect;
type GroupRow = typeof groups.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

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

export function toMessage(m: MessageRow): Message {
  return {
    messageID: m.id,
    messageType: m.messageType,
    authorID: m.authorUserId,
    invoiceID: m.invoiceId,
    invoiceNumber: m.invoiceNumber,
    author: m.author,
    date: m.date.toISOString(),
    title: m.title,
    message: m.text,
    read: m.read,
  };
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

export async function loadUser(db: Db | Tx, userId: string): Promise<UserRow> {
  const [u] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!u) throw new ApiError('auth.unauthorized');
  return u;
}

export async function buildSelf(db: Db, userId: string): Promise<Self> {
  const u = await loadUser(db, userId);
  const [issuer] = await db.select().from(issuers).where(eq(issuers.id, u.issuerId)).limit(1);
  if (!issuer) throw new ApiError('server.internal');
  const group = u.groupId
    ? ((await db.select().from(groups).where(eq(groups.id, u.groupId)).limit(1))[0] ?? null)
    : null;
  const msgs = await db
    .select()
    .from(messages)
    .where(eq(messages.issuerId, u.issuerId))
    .orderBy(desc(messages.date))
    .limit(SELF_MESSAGE_LIMIT);
  return {
    ...toUser(u),
    abilities: await abilitiesOf(db, u.id),
    issuer: toIssuer(issuer),
    group: group ? toGroup(group) : null,
    taxRates: TAX_RATES[issuer.country],
    currencies: CURRENCIES[issuer.country],
    messages: msgs.map(toMessage),
  };
}
