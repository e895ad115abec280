import type { createMessageBodySchema, listMessagesQuerySchema, Message } from '@portal/contracts';
import type { Locale } from '@portal/i18n';
import type { z } from 'zod';
import type { AuthContext } from '../../context';
import type { Db } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { type Reader, toMessage } from '../../services/notices';
import { languageOf, loadUser } from '../../services/users';
import * as repo from './messages.repository';

/**
 * The messages module (spec §2, §3): the issuer's messages with our notices worded in the reader's
 * language, a message the user writes to us, and marking one read.
 */

/** `listMessages`: one page, each worded for the reader (the request's language, else the user's). */
export async function listMessages(
  db: Db,
  auth: AuthContext,
  query: z.output<typeof listMessagesQuerySchema>,
  requestLanguage: Locale | null,
) {
  const { issuerId, userId } = auth;
  const language = requestLanguage ?? (await languageOf(db, userId));
  const reader: Reader = { userId, language };
  const { rows, total, unread } = await repo.listMessages(db, issuerId, userId, query);
  return {
    items: rows.map((m) => toMessage(m, reader)),
    total,
    page: query.page,
    pageSize: query.pageSize,
    unread,
  };
}

/**
 * `createMessage`: the user's message to us, about one of the issuer's invoices (that invoice's
 * timeline gets a `message` event) or in general; another issuer's invoice is not found.
 */
export async function createMessage(
  db: Db,
  auth: AuthContext,
  body: z.output<typeof createMessageBodySchema>,
  readerLanguage: (stored: Locale | null) => Locale,
  now: Date,
): Promise<Message> {
  return db.transaction(async (tx) => {
    let invoiceNumber: string | null = null;
    if (body.invoiceID) {
      invoiceNumber = await repo.invoiceNumberOf(tx, auth.issuerId, body.invoiceID);
      if (invoiceNumber === null) throw new ApiError('invoices.not_found');
    }
    const user = await loadUser(tx, auth.userId);
    const row = await repo.insertUserMessage(tx, {
      issuerId: auth.issuerId,
      authorUserId: auth.userId,
      author: `${user.firstName} ${user.lastName}`,
      invoiceId: body.invoiceID,
      invoiceNumber,
      title: body.title,
      text: body.message,
      date: now,
    });
    if (!row) throw new ApiError('server.internal');
    if (body.invoiceID)
      await repo.insertMessageEvent(tx, {
        invoiceId: body.invoiceID,
        issuerId: auth.issuerId,
        userId: auth.userId,
        at: now,
      });
    return toMessage(row, { userId: auth.userId, language: readerLanguage(user.language) });
  });
}

/** `markMessageRead`: another issuer's message is not found. */
export async function markMessageRead(db: Db, issuerId: string, messageId: string): Promise<void> {
  if (!(await repo.markMessageRead(db, issuerId, messageId))) throw new ApiError('messages.not_found');
}
