import {
  articleBodySchema,
  articleSchema,
  idParamsSchema,
  listArticlesQuerySchema,
  listArticlesResponseSchema,
  okResponseSchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, routeOf, signedIn } from '../../routes/define';
import * as articlesService from './articles.service';

/** The article routes: HTTP only (schema, call, answer); the rules are in articles.service.ts. */
export async function articleRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;
  const tags = ['articles'];

  app.route({
    ...routeOf('listArticles'),
    schema: {
      tags,
      summary: "The caller's invoice articles: search (number, name, description), sort, pages",
      querystring: listArticlesQuerySchema,
      response: { 200: listArticlesResponseSchema, ...errorResponses },
    },
    handler: async (request) =>
      articlesService.listArticles(ctx.db, signedIn(request).issuerId, request.query),
  });

  app.route({
    ...routeOf('getArticle'),
    schema: {
      tags,
      summary: 'One invoice article of the caller',
      params: idParamsSchema,
      response: { 200: articleSchema, ...errorResponses },
    },
    handler: async (request) =>
      articlesService.getArticle(ctx.db, signedIn(request).issuerId, request.params.id),
  });

  app.route({
    ...routeOf('createArticle', { validationCode: 'article.invalid' }),
    schema: {
      tags,
      summary: 'Add an invoice article (article number unique per issuer)',
      body: articleBodySchema,
      response: { 200: articleSchema, ...errorResponses },
    },
    handler: async (request) =>
      articlesService.saveArticle(ctx.db, signedIn(request).issuerId, null, request.body, ctx.now()),
  });

  app.route({
    ...routeOf('updateArticle', { validationCode: 'article.invalid' }),
    schema: {
      tags,
      summary: 'Change an invoice article of the caller',
      params: idParamsSchema,
      body: articleBodySchema,
      response: { 200: articleSchema, ...errorResponses },
    },
    handler: async (request) =>
      articlesService.saveArticle(
        ctx.db,
        signedIn(request).issuerId,
        request.params.id,
        request.body,
        ctx.now(),
      ),
  });

  app.route({
    ...routeOf('deleteArticle'),
    schema: {
      tags,
      summary: 'Delete an invoice article (invoice rows keep their own copy of its fields)',
      params: idParamsSchema,
      response: { 200: okResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      await articlesService.deleteArticle(ctx.db, signedIn(request).issuerId, request.params.id);
      return { ok: true as const };
    },
  });
}
