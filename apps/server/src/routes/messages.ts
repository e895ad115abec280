import {
  COUNTED_MESSAGE_TYPE,
  createMessageBodySchema,
  createMessageResponseSchema,
  INVOICE_EVENT,
  idParamsSchema,
  listMessagesQuerySchema,
  listMessagesResponseSchema,
  okResponseSchema,
} from '@portal/contracts';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { invoiceEvents, invoices, messages } from '../db/schema';
import { ApiError } from '../lib/errors';
import { headerLanguage, readerLanguage, toMessage, unreadFor } from '../services/notices';
import { languageOf, loadUser } from '../services/users';
import { errorResponses, routeOf, signedIn } from './define';

export async function messageRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;

  app.route({
    ...routeOf('listMessages'),
    schema: {
      tags: ['messages'],
      summary: "The issuer's messages, newest first, or one invoice's thread; with the unread count",
      querystring: listMessagesQuerySchema,
      response: { 200: listMessagesResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId, userId } = signedIn(request);
      const q = request.query;
      const filters: (SQL | undefined)[] = [eq(messages.issuerId, issuerId)];
      if (q.invoiceID) filters.push(eq(messages.invoiceId, q.invoiceID));
      if (q.unreadOnly === 'true') filters.push(unreadFor(userId));
      const where = and(...filters);
      // The unread among what is listed: all of the issuer's messages (the header's count) or one thread.
      const counted = and(
        eq(messages.issuerId, issuerId),
        q.invoiceID ? eq(messages.invoiceId, q.invoiceID) : undefined,
        unreadFor(userId),
      );
      const language = headerLanguage(request) ?? (await languageOf(ctx.db, userId));
      const reader = { userId, language };
      const [rows, [total], [unread]] = await Promise.all([
        ctx.db
          .select()
          .from(messages)
          .where(where)
          .orderBy(desc(messages.date), desc(messages.id))
          .limit(q.pageSize)
          .offset((q.page - 1) * q.pageSize),
        ctx.db.select({ n: count() }).from(messages).where(where),
        ctx.db.select({ n: count() }).from(messages).where(counted),
      ]);
      return {
        items: rows.map((m) => toMessage(m, reader)),
        total: total?.n ?? 0,
        page: q.page,
        pageSize: q.pageSize,
        unread: unread?.n ?? 0,
      };
    },
  });

  app.route({
    ...routeOf('createMessage', { validationCode: 'messages.invalid' }),
    schema: {
      tags: ['messages'],
      summary: 'Write to us, about one of the issuer’s invoices or in general',
      body: createMessageBodySchema,
      response: { 200: createMessageResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const auth = signedIn(request);
      const b = request.body;
      const now = ctx.now();
      return ctx.db.transaction(async (tx) => {
        let invoiceNumber: string | null = null;
        if (b.invoiceID) {
          const [inv] = await tx
            .select({ number: invoices.invoiceNumber })
            .from(invoices)
            .where(and(eq(invoices.issuerId, auth.issuerId), eq(invoices.id, b.invoiceID)));
          if (!inv) throw new ApiError('invoices.not_found');
          invoiceNumber = inv.number;
        }
        const user = await loadUser(tx, auth.userId);
        const [row] = await tx
          .insert(messages)
          .values({
            issuerId: auth.issuerId,
            messageType: COUNTED_MESSAGE_TYPE,
            authorUserId: auth.userId,
            author: `${user.firstName} ${user.lastName}`,
            invoiceId: b.invoiceID,
            invoiceNumber,
            title: b.title,
            text: b.message,
            date: now,
            read: true,
          })
          .returning();
        if (!row) throw new ApiError('server.internal');
        if (b.invoiceID)
          await tx.insert(invoiceEvents).values({
            invoiceId: b.invoiceID,
            issuerId: auth.issuerId,
            event: INVOICE_EVENT.message,
            userId: auth.userId,
            at: now,
          });
        return toMessage(row, { userId: auth.userId, language: readerLanguage(request, user.language) });
      });
    },
  });

  app.route({
    ...routeOf('markMessageRead'),
    schema: {
      tags: ['messages'],
      summary: 'Mark one of the issuer’s messages read',
      params: idParamsSchema,
      response: { 200: okResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId } = signedIn(request);
      const updated = await ctx.db
        .update(messages)
        .set({ read: true })
        .where(and(eq(messages.issuerId, issuerId), eq(messages.id, request.params.id)))
        .returning({ id: messages.id });
      if (updated.length === 0) throw new ApiError('messages.not_found');
      return { ok: true as const };
    },
  });
}
