import { createHash, randomUUID } from 'node:crypto';
import { FILE_MAX_BYTES, idParamsSchema, invoiceFileSchema, uploadFileQuerySchema } from '@portal/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PDFDocument } from 'pdf-lib';
import { z } from 'zod';
import { invoiceFiles } from '../db/schema';
import { ApiError } from '../lib/errors';
import { contentDisposition, normaliseFileName } from '../lib/file-names';
import { databaseFileStore } from '../services/file-store';
import { errorResponses, routeOf, signedIn } from './define';

/**
 * What the bytes are: a real PDF (the `%PDF-` signature, the `%%EOF` trailer, and a document with
 * pages a PDF parser can open), an encrypted one, or not a PDF at all.
 */
export async function pdfKind(bytes: Buffer): Promise<'pdf' | 'encrypted' | 'not_pdf'> {
  if (bytes.length < 8 || bytes.subarray(0, 5).toString('latin1') !== '%PDF-') return 'not_pdf';
  try {
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
    if (doc.getPageCount() === 0 || !bytes.subarray(-1024).includes('%%EOF')) return 'not_pdf';
    return doc.isEncrypted ? 'encrypted' : 'pdf';
  } catch {
    return 'not_pdf';
  }
}

export async function fileRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;
  const store = ctx.files ?? databaseFileStore(ctx.db);

  // Bytes of any declared type arrive as a Buffer; what they are is decided by looking at them.
  fastify.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: FILE_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.route({
    ...routeOf('uploadFile'),
    bodyLimit: FILE_MAX_BYTES,
    schema: {
      tags: ['files'],
      summary: `Upload a PDF (the body, at most ${FILE_MAX_BYTES / 1024 / 1024} MB) to attach to an invoice`,
      querystring: uploadFileQuerySchema,
      response: { 200: invoiceFileSchema, ...errorResponses },
    },
    handler: async (request) => {
      const auth = signedIn(request);
      const bytes = request.body;
      if (!Buffer.isBuffer(bytes) || bytes.length === 0) throw new ApiError('files.required');
      const kind = await pdfKind(bytes);
      if (kind === 'not_pdf') throw new ApiError('files.not_pdf');
      // An invoice's own PDF is sent on with our payment slip page added (issue #11), which needs its
      // pages readable; an encrypted attachment is only stored and handed back, so it may stay one.
      if (kind === 'encrypted' && request.query.role === 'invoice') throw new ApiError('files.pdf_encrypted');
      const key = randomUUID();
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      // Bytes first, then the row: a failure in between leaves an unreferenced blob, never a row without bytes.
      await store.put(key, bytes);
      const [row] = await ctx.db
        .insert(invoiceFiles)
        .values({
          issuerId: auth.issuerId,
          role: request.query.role,
          // Served as a PDF, so named as one: a bare name, no path, no device name, `.pdf` at the end.
          filename: normaliseFileName(request.query.filename, '.pdf'),
          contentType: 'application/pdf',
          size: bytes.length,
          sha256,
          storageKey: key,
          uploadedBy: auth.userId,
        })
        .returning();
      if (!row) throw new ApiError('server.internal');
      return { fileID: row.id, role: row.role, filename: row.filename, size: row.size, sha256: row.sha256 };
    },
  });

  app.route({
    ...routeOf('downloadFile'),
    schema: {
      tags: ['files'],
      summary: 'Download an uploaded PDF of the caller’s issuer',
      params: idParamsSchema,
      response: { 200: z.any(), ...errorResponses },
    },
    handler: async (request, reply) => {
      const { issuerId } = signedIn(request);
      const [row] = await ctx.db
        .select()
        .from(invoiceFiles)
        .where(and(eq(invoiceFiles.issuerId, issuerId), eq(invoiceFiles.id, request.params.id)));
      if (!row) throw new ApiError('files.not_found');
      const bytes = await store.get(row.storageKey);
      if (!bytes) throw new ApiError('files.not_found');
      reply.header('Content-Disposition', contentDisposition(row.filename)).type(row.contentType);
      return reply.send(bytes);
    },
  });
}
