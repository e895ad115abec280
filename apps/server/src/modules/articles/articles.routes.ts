import {
  articleBodySchema,
  articleSchema,
  listArticlesQuerySchema,
  listArticlesResponseSchema,
} from '@portal/contracts';
import { ownedItemRoutes, routeModule } from '../../routes/define';
import * as articlesService from './articles.service';

/** The article routes: HTTP only (schema, call, answer); the rules are in articles.service.ts. */
export const articleRoutes = routeModule(['articles'], (route, ctx) => {
  ownedItemRoutes(route, ctx, {
    validationCode: 'article.invalid',
    query: listArticlesQuerySchema,
    page: listArticlesResponseSchema,
    item: articleSchema,
    body: articleBodySchema,
    service: {
      list: articlesService.listArticles,
      get: articlesService.getArticle,
      save: articlesService.saveArticle,
      remove: articlesService.deleteArticle,
    },
    routes: {
      list: {
        op: 'listArticles',
        summary: "The caller's invoice articles: search (number, name, description), sort, pages",
      },
      get: { op: 'getArticle', summary: 'One invoice article of the caller' },
      create: { op: 'createArticle', summary: 'Add an invoice article (article number unique per issuer)' },
      update: { op: 'updateArticle', summary: 'Change an invoice article of the caller' },
      delete: {
        op: 'deleteArticle',
        summary: 'Delete an invoice article (invoice rows keep their own copy of its fields)',
      },
    },
  });
});
