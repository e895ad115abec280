import {
  articleBodySchema,
  articleSchema,
  listArticlesQuerySchema,
  listArticlesResponseSchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, ownedItemRoutes, routeOf, signedIn } from '../../routes/define';
import * as articlesService from './articles.service';

/** The article routes: HTTP only (schema, call, answer); the rules are in articles.service.ts. */
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
    handler: async (request) =>
      articlesService.listArticles(ctx.db, signedIn(request).issuerId, request.query),
  });

  ownedItemRoutes(fastify, {
    tags: ['articles'],
    validationCode: 'article.invalid',
    item: articleSchema,
    body: articleBodySchema,
    service: {
      get: articlesService.getArticle,
      save: articlesService.saveArticle,
      remove: articlesService.deleteArticle,
    },
    routes: {
      get: { op: 'getArticle', summary: 'One invoice article of the caller' },
      create: { op: 'createArticle', summary: 'Add an invoice article (article number unique per issuer)' },
      update: { op: 'updateArticle', summary: 'Change an invoice article of the caller' },
      delete: {
        op: 'deleteArticle',
        summary: 'Delete an invoice article (invoice rows keep their own copy of its fields)',
      },
    },
  });
}
