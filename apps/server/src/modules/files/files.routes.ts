import { FILE_MAX_BYTES, idParamsSchema, invoiceFileSchema, uploadFileQuerySchema } from '@portal/contracts';
import { z } from 'zod';
import { bodiesAsBytes, routeModule, sendFile, signedIn } from '../../routes/define';
import { fileStoreOf } from '../../services/file-store';
import * as files from './files.service';

/** Uploaded PDFs (spec §2): HTTP only; the rules are in files.service.ts. */
export const fileRoutes = routeModule(['files'], (route, ctx, fastify) => {
  const store = fileStoreOf(ctx);

  // Bytes of any declared type arrive as a Buffer; what they are is decided by looking at them.
  bodiesAsBytes(fastify, FILE_MAX_BYTES);

  route(
    'uploadFile',
    `Upload a PDF (the body, at most ${FILE_MAX_BYTES / 1024 / 1024} MB) to attach to an invoice`,
    { querystring: uploadFileQuerySchema, ok: invoiceFileSchema, bodyLimit: FILE_MAX_BYTES },
    async (request) => files.uploadFile(ctx.db, store, signedIn(request), request.body, request.query),
  );
  route(
    'downloadFile',
    'Download an uploaded PDF of the caller’s issuer',
    { params: idParamsSchema, ok: z.any() },
    async (request, reply) => {
      const file = await files.downloadFile(ctx.db, store, signedIn(request).issuerId, request.params.id);
      return sendFile(reply, file.filename, file.contentType, file.bytes);
    },
  );
});
