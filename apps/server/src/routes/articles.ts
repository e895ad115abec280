import {
  type Article,
  articleBodySchema,
  articleSchema,
  idParamsSchema,
  listArticlesQuerySchema,
  listArticlesResponseSchema,
  okResponseSchema,
  type Unit,
} from '@portal/contracts';
import { and, asc, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db, Tx } from '../db/client';
import { articles, issuers, recipients } from '../db/schema';
import { ApiError } from '../lib/errors';
import { isUniqueViolation } from '../lib/pg-errors';
import { containsPattern } from '../lib/sql-search';
import { CURRENCIES, TAX_RATES } from '../services/users';
import { errorResponses, routeOf, signedIn } from './define';

type ArticleRow = typeof articles.$inferSelect;

function toArticle(a: ArticleRow, recipientName: string | null): Article {
  return {
    articleID: a.id,
    articleNumber: a.articleNumber,
    name: a.name,
    description: a.description,
    priceMinor: a.priceMinor,
    currency: a.currency,
    unit: a.unit as Unit,
    vatBasisPoints: a.vatBasisPoints,
    recipientID: a.recipientId,
    recipientName,
    updated: a.updatedAt.toISOString(),
  };
}

const SORT_COLUMNS = {
  articleNumber: articles.articleNumber,
  name: articles.name,
  priceMinor: articles.priceMinor,
  updated: articles.updatedAt,
} as const;

const withRecipient = { article: articles, recipientName: recipients.name } as const;

export async function articleRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;

  app.route({
    ...routeOf('listArticles'),
    schema: {
      tags: ['articles'],
      summary: "The caller's invoice articles: search (number, name, description), sort, pages",
      querystring: listArticlesQuerySchema,
      response: { 200: listArticlesResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId } = signedIn(request);
      const q = request.query;
      const filters: SQL[] = [eq(articles.issuerId, issuerId)];
      if (q.recipientID) filters.push(eq(articles.recipientId, q.recipientID));
      if (q.search) {
        const p = containsPattern(q.search);
        const match = or(
          ilike(articles.articleNumber, p),
          ilike(articles.name, p),
          ilike(articles.description, p),
        );
        if (match) filters.push(match);
      }
      const where = and(...filters);
      const column = SORT_COLUMNS[q.sort];
      const [rows, [total]] = await Promise.all([
        ctx.db
          .select(withRecipient)
          .from(articles)
          .leftJoin(recipients, eq(recipients.id, articles.recipientId))
          .where(where)
          .orderBy(q.order === 'asc' ? asc(column) : desc(column), asc(articles.id))
          .limit(q.pageSize)
          .offset((q.page - 1) * q.pageSize),
        ctx.db.select({ n: count() }).from(articles).where(where),
      ]);
      return {
        items: rows.map((r) => toArticle(r.article, r.recipientName)),
        total: total?.n ?? 0,
        page: q.page,
        pageSize: q.pageSize,
      };
    },
  });

  app.route({
    ...routeOf('getArticle'),
    schema: {
      tags: ['articles'],
      summary: 'One invoice article of the caller',
      params: idParamsSchema,
      response: { 200: articleSchema, ...errorResponses },
    },
    handler: async (request) => findOwn(ctx.db, request.params.id, signedIn(request).issuerId),
  });

  app.route({
    ...routeOf('createArticle', { validationCode: 'article.invalid' }),
    schema: {
      tags: ['articles'],
      summary: 'Add an invoice article (article number unique per issuer)',
      body: articleBodySchema,
      response: { 200: articleSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId } = signedIn(request);
      const b = request.body;
      try {
        return await ctx.db.transaction(async (tx) => {
          const currency = await checkArticle(tx, issuerId, b.vatBasisPoints, b.recipientID);
          const [row] = await tx
            .insert(articles)
            .values({
              issuerId,
              articleNumber: b.articleNumber.trim(),
              name: b.name.trim(),
              description: b.description,
              priceMinor: b.priceMinor,
              currency,
              unit: b.unit,
              vatBasisPoints: b.vatBasisPoints,
              recipientId: b.recipientID,
            })
            .returning({ id: articles.id });
          if (!row) throw new ApiError('server.internal');
          return findOwn(tx, row.id, issuerId);
        });
      } catch (err) {
        if (isUniqueViolation(err))
          throw new ApiError('article.duplicate_number', {
            issues: [{ path: 'articleNumber', code: 'article.duplicate_number' }],
          });
        throw err;
      }
    },
  });

  app.route({
    ...routeOf('updateArticle', { validationCode: 'article.invalid' }),
    schema: {
      tags: ['articles'],
      summary: 'Change an invoice article of the caller',
      params: idParamsSchema,
      body: articleBodySchema,
      response: { 200: articleSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId } = signedIn(request);
      const b = request.body;
      try {
        return await ctx.db.transaction(async (tx) => {
          await checkArticle(tx, issuerId, b.vatBasisPoints, b.recipientID);
          const [row] = await tx
            .update(articles)
            .set({
              articleNumber: b.articleNumber.trim(),
              name: b.name.trim(),
              description: b.description,
              priceMinor: b.priceMinor,
              unit: b.unit,
              vatBasisPoints: b.vatBasisPoints,
              recipientId: b.recipientID,
              updatedAt: ctx.now(),
            })
            .where(and(eq(articles.issuerId, issuerId), eq(articles.id, request.params.id)))
            .returning({ id: articles.id });
          if (!row) throw new ApiError('article.not_found');
          return findOwn(tx, row.id, issuerId);
        });
      } catch (err) {
        if (isUniqueViolation(err))
          throw new ApiError('article.duplicate_number', {
            issues: [{ path: 'articleNumber', code: 'article.duplicate_number' }],
          });
        throw err;
      }
    },
  });

  app.route({
    ...routeOf('deleteArticle'),
    schema: {
      tags: ['articles'],
      summary: 'Delete an invoice article (invoice rows keep their own copy of its fields)',
      params: idParamsSchema,
      response: { 200: okResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId } = signedIn(request);
      const deleted = await ctx.db
        .delete(articles)
        .where(and(eq(articles.issuerId, issuerId), eq(articles.id, request.params.id)))
        .returning({ id: articles.id });
      if (deleted.length === 0) throw new ApiError('article.not_found');
      return { ok: true as const };
    },
  });
}

/** The issuer's currency for the article; refuses a VAT rate or a recipient that is not the issuer's. */
async function checkArticle(
  tx: Db | Tx,
  issuerId: string,
  vatBasisPoints: number,
  recipientId: string | null,
): Promise<string> {
  const [issuer] = await tx
    .select({ country: issuers.country })
    .from(issuers)
    .where(eq(issuers.id, issuerId));
  if (!issuer) throw new ApiError('server.internal');
  if (!TAX_RATES[issuer.country].some((r) => r.rateBasisPoints === vatBasisPoints))
    throw new ApiError('article.invalid_vat_rate', {
      issues: [{ path: 'vatBasisPoints', code: 'article.invalid_vat_rate' }],
    });
  if (recipientId) {
    const [own] = await tx
      .select({ id: recipients.id })
      .from(recipients)
      .where(and(eq(recipients.issuerId, issuerId), eq(recipients.id, recipientId)));
    if (!own) throw new ApiError('recipient.not_found');
  }
  return CURRENCIES[issuer.country][0] ?? 'SEK';
}

async function findOwn(db: Db | Tx, id: string, issuerId: string): Promise<Article> {
  const [row] = await db
    .select(withRecipient)
    .from(articles)
    .leftJoin(recipients, eq(recipients.id, articles.recipientId))
    .where(and(eq(articles.issuerId, issuerId), eq(articles.id, id)))
    .limit(1);
  if (!row) throw new ApiError('article.not_found');
  return toArticle(row.article, row.recipientName);
}
