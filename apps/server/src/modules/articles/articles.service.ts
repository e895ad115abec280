import type { Article, ListArticlesQuery, ParsedArticleBody } from '@portal/contracts';
import type { Db, Tx } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { isUniqueViolation } from '../../lib/pg-errors';
import { CURRENCIES, TAX_RATES } from '../../services/users';
import * as repo from './articles.repository';

/**
 * The articles module's service: the issuer's price list of invoice articles (spec §3). An article
 * number is unique per issuer; the VAT rate is one of the issuer's country, the recipient the issuer's
 * own. Outside this folder, import from this file only (ARCHITECTURE.md "Modules").
 */

export async function listArticles(db: Db, issuerId: string, query: ListArticlesQuery) {
  const page = await repo.listArticles(db, issuerId, query);
  return { ...page, page: query.page, pageSize: query.pageSize };
}

export async function getArticle(db: Db | Tx, issuerId: string, id: string): Promise<Article> {
  const article = await repo.findArticle(db, issuerId, id);
  if (!article) throw new ApiError('article.not_found');
  return article;
}

/**
 * Adds an article (`id` null) or changes the issuer's article `id` (its currency stays), in one
 * transaction; another article of the issuer with the same number answers `article.duplicate_number`.
 */
export async function saveArticle(
  db: Db,
  issuerId: string,
  id: string | null,
  body: ParsedArticleBody,
  now: Date,
): Promise<Article> {
  const values: repo.ArticleValues = {
    articleNumber: body.articleNumber.trim(),
    name: body.name.trim(),
    description: body.description,
    priceMinor: body.priceMinor,
    unit: body.unit,
    vatBasisPoints: body.vatBasisPoints,
    recipientId: body.recipientID,
  };
  try {
    return await db.transaction(async (tx) => {
      const currency = await checkArticle(tx, issuerId, body.vatBasisPoints, body.recipientID);
      const savedId =
        id === null
          ? await repo.insertArticle(tx, issuerId, currency, values)
          : await repo.updateArticle(tx, issuerId, id, values, now);
      if (!savedId) throw new ApiError(id === null ? 'server.internal' : 'article.not_found');
      return getArticle(tx, issuerId, savedId);
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ApiError('article.duplicate_number', {
        issues: [{ path: 'articleNumber', code: 'article.duplicate_number' }],
      });
    throw err;
  }
}

export async function deleteArticle(db: Db, issuerId: string, id: string): Promise<void> {
  if (!(await repo.deleteArticle(db, issuerId, id))) throw new ApiError('article.not_found');
}

/** The issuer's currency for the article; refuses a VAT rate or a recipient that is not the issuer's. */
async function checkArticle(
  tx: Tx,
  issuerId: string,
  vatBasisPoints: number,
  recipientId: string | null,
): Promise<string> {
  const country = await repo.issuerCountry(tx, issuerId);
  if (!country) throw new ApiError('server.internal');
  if (!TAX_RATES[country].some((r) => r.rateBasisPoints === vatBasisPoints))
    throw new ApiError('article.invalid_vat_rate', {
      issues: [{ path: 'vatBasisPoints', code: 'article.invalid_vat_rate' }],
    });
  if (recipientId && !(await repo.ownsRecipient(tx, issuerId, recipientId)))
    throw new ApiError('recipient.not_found');
  return CURRENCIES[country][0] ?? 'SEK';
}
