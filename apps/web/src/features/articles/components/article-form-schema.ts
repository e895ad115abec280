import {
  type Article,
  type ArticleBody,
  articleBodySchema,
  type Language,
  minorAmountSchema,
  UNITS,
} from '@portal/contracts';
import { type Currency, formatAmount, type MoneyParseError, parseMoney } from '@portal/domain/money';
import { z } from 'zod';

export interface PickedRecipient {
  recipientID: string;
  name: string;
}

/** What the article form holds: the price as typed, the VAT rate as the select's value. */
export type ArticleFormValues = z.input<ReturnType<typeof articleFormSchema>>;

/** The rule code each refusal of the price parser shows. */
export const PRICE_ERROR_CODES: Record<MoneyParseError, string> = {
  empty: 'validation.required',
  invalid: 'articles:form.price_invalid',
  too_many_decimals: 'validation.whole_minor_units',
  out_of_range: 'validation.amount_range',
};

const body = articleBodySchema.shape;

/**
 * The article form's schema: each field checked by the contract's own piece of `articleBodySchema`
 * (so the browser and the server refuse the same input with the same codes), after the typed price
 * is read into exact minor units in the user's language by `@portal/domain/money` ("1 234,50" in
 * Swedish and Finnish, "1,234.50" in English; never through a float). The output is the request body.
 */
export function articleFormSchema(language: Language, currency: Currency) {
  return z
    .object({
      articleNumber: body.articleNumber,
      name: body.name,
      description: body.description,
      price: z
        .string()
        .transform((text, ctx) => {
          const result = parseMoney(text, { locale: language, currency });
          if (result.ok) return result.minor;
          ctx.addIssue({ code: 'custom', message: PRICE_ERROR_CODES[result.error] });
          return z.NEVER;
        })
        .pipe(minorAmountSchema),
      unit: body.unit,
      vatBasisPoints: z
        .string()
        .regex(/^\d+$/, 'validation.required')
        .transform(Number)
        .pipe(body.vatBasisPoints),
      recipient: z.object({ recipientID: z.string(), name: z.string() }).nullable(),
    })
    .transform(
      (v): ArticleBody => ({
        articleNumber: v.articleNumber,
        name: v.name,
        description: v.description,
        priceMinor: v.price,
        unit: v.unit,
        vatBasisPoints: v.vatBasisPoints,
        recipientID: v.recipient?.recipientID ?? null,
      }),
    );
}

/** The form's starting values: an article to edit, or a blank one with the first VAT rate. */
export function articleToForm(
  article: Article | null,
  language: Language,
  defaultVatBasisPoints: number | undefined,
): Required<ArticleFormValues> {
  if (!article) {
    return {
      articleNumber: '',
      name: '',
      description: '',
      price: '',
      unit: UNITS[0],
      vatBasisPoints: defaultVatBasisPoints === undefined ? '' : String(defaultVatBasisPoints),
      recipient: null,
    };
  }
  return {
    articleNumber: article.articleNumber,
    name: article.name,
    description: article.description,
    price: formatAmount(article.priceMinor, language),
    unit: article.unit,
    vatBasisPoints: String(article.vatBasisPoints),
    recipient:
      article.recipientID === null
        ? null
        : { recipientID: article.recipientID, name: article.recipientName ?? '' },
  };
}

/** Where a server issue's path (a body field) shows in the form. */
export function formFieldOf(path: string): keyof ArticleFormValues | null {
  if (path === 'priceMinor') return 'price';
  if (path === 'recipientID') return 'recipient';
  const fields: readonly string[] = ['articleNumber', 'name', 'description', 'unit', 'vatBasisPoints'];
  return fields.includes(path) ? (path as keyof ArticleFormValues) : null;
}
