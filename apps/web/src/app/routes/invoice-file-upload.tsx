import { InvoiceImportPage } from '../../features/invoices/components/invoice-import-page';

/** `/invoice/fileupload` (spec §2): import invoices from a CSV or Excel file. */
export default function InvoiceFileUploadRoute() {
  return <InvoiceImportPage />;
}
