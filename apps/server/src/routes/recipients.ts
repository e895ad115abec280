import {
  documentLanguageForCountry,
  idParamsSchema,
  listRecipientsQuerySchema,
  listRecipientsResponseSchema,
  okResponseSchema,
  RECIPIENT_ISSUES,
  recipientBodySchema,
  recipientSchema,
  searchCompaniesQuerySchema,
  searchCompaniesResponseSchema,
} from '@portal/contracts';
import { partyNumberKey } from '@portal/domain/party-number';
import { and, asc, count, desc, eq, ilike, ne, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { articles, invoices, partyNumberKeySql, recipients } from '../db/schema';
import { ApiError } from '../lib/errors';
import { isUniqueViolation } from '../lib/pg-errors';
import { containsPattern } from '../lib/sql-search';
import { searchCompanies } from '../services/companies';
import { toRecipient } from '../services/recipients';
import { errorResponses, routeOf, signedIn } from './define';

const SORT_COLUMNS = {
  name: recipients.name,
  city: recipients.city,
  organizationNumber: recipients.organizationNumber,
  updated: recipients.updatedAt,
} as const;

export async function recipientRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;

  app.route({
    ...routeOf('listRecipients'),
    schema: {
      tags: ['recipients'],
      summary: "The caller's recipients: search (name, organisation number, city, email), sort and pages",
      querystring: listRecipientsQuerySchema,
      response: { 200: listRecipientsResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId } = signedIn(request);
      const q = request.query;
      const filters: SQL[] = [eq(recipients.issuerId, issuerId)];
      if (q.search) {
        const p = containsPattern(q.search);
        const match = or(
          ilike(recipients.name, p),
          ilike(recipients.organizationNumber, p),
          ilike(recipients.city, p),
          ilike(recipients.email, p),
        );
        if (match) filters.push(match);
      }
      const where = and(...filters);
      const column = SORT_COLUMNS[q.sort];
      const [items, [total]] = await Promise.all([
        ctx.db
          .select()
          .from(recipients)
          .where(where)
          .orderBy(q.order === 'asc' ? asc(column) : desc(column), asc(recipients.id))
          .limit(q.pageSize)
          .offset((q.page - 1) * q.pageSize),
        ctx.db.select({ n: count() }).from(recipients).where(where),
      ]);
      return { items: items.map(toRecipient), total: total?.n ?? 0, page: q.page, pageSize: q.pageSize };
    },
  });

  app.route({
    ...routeOf('getRecipient'),
    schema: {
      tags: ['recipients'],
      summary: 'One recipient of the caller',
      params: idParamsSchema,
      response: { 200: recipientSchema, ...errorResponses },
    },
    handler: async (request) => toRecipient(await findOwn(request.params.id, signedIn(request).issuerId)),
  });

  app.route({
    ...routeOf('createRecipient', { validationCode: 'recipient.invalid' }),
    schema: {
      tags: ['recipients'],
      summary:
        'Add a recipient (spec §5: name required, max 45; zip code, city and a valid email; a party number no other recipient of the issuer has; the document language defaults to the country’s)',
      body: recipientBodySchema,
      response: { 200: recipientSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId } = signedIn(request);
      const body = normalise(request.body);
      const [row] = await guardPartyNumber(issuerId, body.organizationNumber, null, () =>
        ctx.db
          .insert(recipients)
          .values({
            ...body,
            issuerId,
            documentLanguage: body.documentLanguage ?? documentLanguageForCountry(body.country),
          })
          .returning(),
      );
      if (!row) throw new ApiError('server.internal');
      return toRecipient(row);
    },
  });

  app.route({
    ...routeOf('updateRecipient', { validationCode: 'recipient.invalid' }),
    schema: {
      tags: ['recipients'],
      summary: 'Change a recipient of the caller (without a documentLanguage the stored one is kept)',
      params: idParamsSchema,
      body: recipientBodySchema,
      response: { 200: recipientSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId } = signedIn(request);
      const { id } = request.params;
      const body = normalise(request.body);
      const [row] = await guardPartyNumber(issuerId, body.organizationNumber, id, () =>
        ctx.db
          .update(recipients)
          .set({ ...body, updatedAt: ctx.now() })
          .where(and(eq(recipients.issuerId, issuerId), eq(recipients.id, id)))
          .returning(),
      );
      if (!row) throw new ApiError('recipient.not_found');
      return toRecipient(row);
    },
  });

  app.route({
    ...routeOf('deleteRecipient'),
    schema: {
      tags: ['recipients'],
      summary: 'Delete a recipient; refused (409 recipient.in_use) while articles or invoices use it',
      params: idParamsSchema,
      response: { 200: okResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId } = signedIn(request);
      const { id } = request.params;
      await ctx.db.transaction(async (tx) => {
        const [own] = await tx
          .select({ id: recipients.id })
          .from(recipients)
          .where(and(eq(recipients.issuerId, issuerId), eq(recipients.id, id)))
          .for('update');
        if (!own) throw new ApiError('recipient.not_found');
        const [used] = await tx
          .select({ n: count() })
          .from(articles)
          .where(and(eq(articles.issuerId, issuerId), eq(articles.recipientId, id)));
        const [invoiced] = await tx
          .select({ n: count() })
          .from(invoices)
          .where(and(eq(invoices.issuerId, issuerId), eq(invoices.recipientId, id)));
        if ((used?.n ?? 0) > 0 || (invoiced?.n ?? 0) > 0) throw new ApiError('recipient.in_use');
        await tx.delete(recipients).where(and(eq(recipients.issuerId, issuerId), eq(recipients.id, id)));
      });
      return { ok: true as const };
    },
  });

  app.route({
    ...routeOf('searchCompanies'),
    schema: {
      tags: ['recipients'],
      summary: 'Look a company up by name or organisation number (too many matches: 422)',
      querystring: searchCompaniesQuerySchema,
      response: { 200: searchCompaniesResponseSchema, ...errorResponses },
    },
    handler: async (request) => ({ items: await searchCompanies(ctx.db, request.query.query) }),
  });

  /**
   * Runs `write` unless another recipient of the issuer (not `self`) has the same party number; then,
   * and when the unique index refuses a write that raced with another one, answers 400
   * `recipient.invalid` with the issue `recipient.org_number_taken` on the field and that recipient's
   * id, name and number as it is stored in `details`, for the form's link to it.
   */
  async function guardPartyNumber<T>(
    issuerId: string,
    organizationNumber: string,
    self: string | null,
    write: () => Promise<T>,
  ): Promise<T> {
    await refuseTaken(issuerId, organizationNumber, self);
    try {
      return await write();
    } catch (err) {
      if (!isUniqueViolation(err, 'recipients_issuer_party_number_idx')) throw err;
      await refuseTaken(issuerId, organizationNumber, self);
      throw err;
    }
  }

  async function refuseTaken(issuerId: string, organizationNumber: string, self: string | null) {
    const key = partyNumberKey(organizationNumber);
    if (key === '') return;
    const [taken] = await ctx.db
      .select({ id: recipients.id, name: recipients.name, number: recipients.organizationNumber })
      .from(recipients)
      .where(
        and(
          eq(recipients.issuerId, issuerId),
          sql`${partyNumberKeySql(recipients.organizationNumber)} = ${key}`,
          self === null ? undefined : ne(recipients.id, self),
        ),
      )
      .limit(1);
    if (taken) {
      throw new ApiError('recipient.invalid', {
        issues: [{ path: 'organizationNumber', code: RECIPIENT_ISSUES.orgNumberTaken }],
        details: {
          recipientID: taken.id,
          recipientName: taken.name,
          recipientOrganizationNumber: taken.number,
        },
      });
    }
  }

  async function findOwn(id: string, issuerId: string): Promise<typeof recipients.$inferSelect> {
    const [row] = await ctx.db
      .select()
      .from(recipients)
      .where(and(eq(recipients.issuerId, issuerId), eq(recipients.id, id)))
      .limit(1);
    if (!row) throw new ApiError('recipient.not_found');
    return row;
  }
}

// The contract has already put the party number in its one form and the phone number in E.164.
function normalise<T extends { vat: string }>(body: T): T {
  return { ...body, vat: body.vat.replace(/\s/g, '').toUpperCase() };
}
