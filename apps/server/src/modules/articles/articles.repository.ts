import type { Article, ListArticlesQuery, Unit } from '@portal/contracts';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { pageWithTotal } from '../../db/paging';
import { articles, issuers, recipients } from '../../db/schema';
import { pageOrder, searchAny } from '../../lib/sql-search';

/** The queries of the articles module; each takes the database or a transaction, the issuer first. */

type ArticleRow = typeof articles.$inferSelect;
/** The columns an article is written with (the issuer and currency are set on insert only). */
export type ArticleValues = Pick<
  typeof articles.$inferInsert,
  'articleNumber' | 'name' | 'description' | 'priceMinor' | 'unit' | 'vatBasisPoints' | 'recipientId'
>;

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

/** One page of the issuer's articles and how many match in all. */
export async function listArticles(db: Db, issuerId: string, q: ListArticlesQuery) {
  const where = and(
    eq(articles.issuerId, issuerId),
    q.recipientID ? eq(articles.recipientId, q.recipientID) : undefined,
    searchAny(q.search, [articles.articleNumber, articles.name, articles.description]),
  );
  const { rows, total } = await pageWithTotal(
    db,
    db
      .select(withRecipient)
      .from(articles)
      .leftJoin(recipients, eq(recipients.id, articles.recipientId))
      .where(where)
      .orderBy(...pageOrder(SORT_COLUMNS[q.sort], q.order, articles.id))
      .$dynamic(),
    articles,
    where,
    q,
  );
  return { items: rows.map((r) => toArticle(r.article, r.recipientName)), total };
}

/** The issuer's article with its recipient's name, or undefined. */
export async function findArticle(db: Db | Tx, issuerId: string, id: string): Promise<Article | undefined> {
  const [row] = await db
    .select(withRecipient)
    .from(articles)
    .leftJoin(recipients, eq(recipients.id, articles.recipientId))
    .where(and(eq(articles.issuerId, issuerId), eq(articles.id, id)))
    .limit(1);
  return row && toArticle(row.article, row.recipientName);
}

export async function issuerCountry(tx: Tx, issuerId: string) {
  const [issuer] = await tx
    .select({ country: issuers.country })
    .from(issuers)
    .where(eq(issuers.id, issuerId));
  return issuer?.country;
}

export async function ownsRecipient(tx: Tx, issuerId: string, recipientId: string): Promise<boolean> {
  const [own] = await tx
    .select({ id: recipients.id })
    .from(recipients)
    .where(and(eq(recipients.issuerId, issuerId), eq(recipients.id, recipientId)));
  return own !== undefined;
}

/** The new article's id. */
export async function insertArticle(tx: Tx, issuerId: string, currency: string, values: ArticleValues) {
  const [row] = await tx
    .insert(articles)
    .values({ issuerId, currency, ...values })
    .returning({ id: articles.id });
  return row?.id;
}

/** The changed article's id; undefined when the issuer has no such article. */
export async function updateArticle(tx: Tx, issuerId: string, id: string, values: ArticleValues, now: Date) {
  const [row] = await tx
    .update(articles)
    .set({ ...values, updatedAt: now })
    .where(and(eq(articles.issuerId, issuerId), eq(articles.id, id)))
    .returning({ id: articles.id });
  return row?.id;
}

/** Whether the issuer had the article. */
export async function deleteArticle(db: Db, issuerId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(articles)
    .where(and(eq(articles.issuerId, issuerId), eq(articles.id, id)))
    .returning({ id: articles.id });
  return deleted.length > 0;
}
