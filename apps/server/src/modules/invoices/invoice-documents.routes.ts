import {
  DEFAULT_LANGUAGE,
  getInvoicesPdfBodySchema,
  INVOICES_PDF_MAX,
  idParamsSchema,
} from '@portal/contracts';
import { translate } from '@portal/i18n';
import { z } from 'zod';
import { ApiError } from '../../lib/errors';
import { todayIn } from '../../lib/today';
import { routeModule, sendFile, signedIn } from '../../routes/define';
import { fileStoreOf } from '../../services/file-store';
import { loadUser } from '../../services/users';
import { invoiceDocuments, joinDocuments } from './invoice-documents.service';

/** The invoice documents' downloads: HTTP only; the service draws, stores and reads them. */
export const invoiceDocumentRoutes = routeModule(['invoices'], (route, ctx) => {
  const files = fileStoreOf(ctx);
  route(
    'getInvoicePdf',
    'The invoice’s document in the recipient’s language: byte for byte the PDF sent, once sent; drawn from the invoice as it is before',
    { params: idParamsSchema, ok: z.any() },
    async (request, reply) => {
      const auth = signedIn(request);
      const [document] = await invoiceDocuments(
        ctx.db,
        files,
        auth.issuerId,
        [request.params.id],
        todayIn(ctx.now()),
      );
      if (!document) throw new ApiError('invoices.not_found');
      return sendFile(reply, `faktura-${document.invoiceNumber}.pdf`, 'application/pdf', document.bytes);
    },
  );
  route(
    'getInvoicesPdf',
    `One PDF of the chosen invoices’ documents (at most ${INVOICES_PDF_MAX}), in the order given, each as its own PDF has it`,
    { body: getInvoicesPdfBodySchema, ok: z.any() },
    async (request, reply) => {
      const auth = signedIn(request);
      const ids = [...new Set(request.body.invoiceIDs)];
      if (ids.length > INVOICES_PDF_MAX) throw new ApiError('invoices.too_many_records');
      const today = todayIn(ctx.now());
      // Every id is checked before anything is drawn: one foreign or unknown id answers 404 for all.
      const documents = await invoiceDocuments(ctx.db, files, auth.issuerId, ids, today);
      // The documents are each in their recipient's language; only the bundle's title is the user's.
      const user = await loadUser(ctx.db, auth.userId);
      const language = request.body.language ?? user.language ?? DEFAULT_LANGUAGE;
      const title = translate(language, 'documents', 'invoicePdf.titleMany', {
        count: documents.length,
      });
      const pdf = await joinDocuments(documents, title);
      const [only] = documents;
      const filename =
        documents.length === 1 && only ? `faktura-${only.invoiceNumber}.pdf` : `fakturor-${today}.pdf`;
      return sendFile(reply, filename, 'application/pdf', pdf);
    },
  );
});
