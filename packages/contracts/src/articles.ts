import { z } from 'zod';
import { listQuerySchema, pageSchema } from './lists';
import { optionalText } from './recipients';
import { requiredText } from './rules';

/** Units of an invoice row or article (spec §3). */
export const UNITS = ['st', 'h', 'km', 'pack', 'utl'] as const;
export type Unit = (typeof UNITS)[number];

export const ARTICLE_LIMITS = { articleNumber: 25, name: 100, description: 500 } as const;
/** Largest price of one unit in minor units (10 million in the currency's major unit). */
export const MAX_UNIT_PRICE_MINOR = 1_000_000_000;

/** A price in minor units (öre, cents): an integer, never a float. */
export const minorAmountSchema = z
  .number('validation.required')
  .int('validation.whole_minor_units')
  .min(-MAX_UNIT_PRICE_MINOR, 'validation.amount_range')
  .max(MAX_UNIT_PRICE_MINOR, 'validation.amount_range');

/** A VAT rate in basis points; the server also checks it is one of the issuer's taxRates. */
export const vatBasisPointsSchema = z.number().int().min(0).max(10_000);

/** `POST/PUT limited/articles`: an invoice article of spec §3. */
export const articleBodySchema = z.object({
  articleNumber: requiredText(ARTICLE_LIMITS.articleNumber),
  name: requiredText(ARTICLE_LIMITS.name),
  description: optionalText(ARTICLE_LIMITS.description, { multiline: true }),
  priceMinor: minorAmountSchema,
  unit: z.enum(UNITS, 'validation.invalid'),
  vatBasisPoints: vatBasisPointsSchema,
  /** An article may be tied to one recipient (its own price list); null for everyone. */
  recipientID: z.uuid('validation.invalid').nullable().default(null),
});
export type ArticleBody = z.input<typeof articleBodySchema>;
export type ParsedArticleBody = z.output<typeof articleBodySchema>;

export const articleSchema = z.object({
  articleID: z.string(),
  articleNumber: z.string(),
  name: z.string(),
  description: z.string(),
  priceMinor: z.number().int(),
  currency: z.string(),
  unit: z.enum(UNITS),
  vatBasisPoints: z.number().int(),
  recipientID: z.string().nullable(),
  recipientName: z.string().nullable(),
  updated: z.string(),
});
export type Article = z.infer<typeof articleSchema>;

export const ARTICLE_SORT_FIELDS = ['articleNumber', 'name', 'priceMinor', 'updated'] as const;
export const listArticlesQuerySchema = listQuerySchema(ARTICLE_SORT_FIELDS).extend({
  recipientID: z.uuid().optional(),
});
export type ListArticlesQuery = z.output<typeof listArticlesQuerySchema>;
export const listArticlesResponseSchema = pageSchema(articleSchema);
