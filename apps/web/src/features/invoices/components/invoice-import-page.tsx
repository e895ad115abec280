import type { ImportPreview, importInvoicesResponseSchema } from '@portal/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { DataTable } from '../../../components/ui/list-results';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { errorText, translateCode } from '../../../lib/messages';
import { formatMoney, totalsByCurrency } from '../../../lib/money';
import { useGetImportTemplate } from '../api/get-import-template';
import { useImportInvoices } from '../api/import-invoices';
import { usePreviewInvoiceImport } from '../api/preview-invoice-import';
import { IMPORT_ACCEPT, type ImportFormat, importFileProblem, importFormatOf } from '../utils/import-file';
import {
  formatLineRanges,
  type ImportPreviewInvoice,
  importableInvoices,
  issueText,
} from '../utils/import-preview';
import { CurrencyTotals } from './currency-totals';
import { FileInput } from './file-input';
import '../texts';

type ImportResult = z.infer<typeof importInvoicesResponseSchema>;

interface Checked {
  file: File;
  format: ImportFormat;
  preview: ImportPreview;
  /** Made once per preview: a double click or a retry of the confirm imports the file once. */
  idempotencyKey: string;
}

/** Moves focus to a heading that has just appeared, so keyboard and screen reader users land on it. */
function useFocusOnAppear<T extends HTMLElement>(shown: boolean) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown]);
  return ref;
}

function TemplateSection() {
  const { t, i18n } = useTranslation();
  const template = useGetImportTemplate(toLanguage(i18n.language));
  return (
    <section className="card card--border import-page__section stack" aria-labelledby="import-template-title">
      <h2 id="import-template-title" className="section-title">
        {t('invoices:import.template_title')}
      </h2>
      <p className="muted">{t('invoices:import.template_hint')}</p>
      <div className="button-row">
        <Button
          variant="secondary"
          label={t('invoices:import.template_csv')}
          loading={template.isPending && template.variables === 'csv'}
          onClick={() => template.mutate('csv')}
        />
        <Button
          variant="secondary"
          label={t('invoices:import.template_xlsx')}
          loading={template.isPending && template.variables === 'xlsx'}
          onClick={() => template.mutate('xlsx')}
        />
      </div>
      {template.isError && (
        <p className="notice notice--error" role="alert">
          {t('invoices:import.template_failed')}
        </p>
      )}
    </section>
  );
}

function StatusBadge({ invoice }: { invoice: ImportPreviewInvoice }) {
  const { t } = useTranslation();
  return invoice.issues.length === 0 ? (
    <span className="state-badge state-badge--success">{t('invoices:import.status_ok')}</span>
  ) : (
    <span className="state-badge state-badge--danger">{t('invoices:import.status_error')}</span>
  );
}

function PreviewTable({ preview }: { preview: ImportPreview }) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const count = new Intl.NumberFormat(language);
  return (
    <DataTable
      caption={t('invoices:import.table_caption')}
      className="data-table import-table"
      columns={[
        { label: t('invoices:import.table.status') },
        { label: t('invoices:list.columns.number') },
        { label: t('invoices:list.columns.recipient') },
        { label: t('invoices:list.columns.invoice_date') },
        { label: t('invoices:import.table.lines') },
        { label: t('invoices:import.table.rows'), numeric: true },
        { label: t('invoices:list.columns.amount'), numeric: true },
        { label: t('invoices:import.table.issues') },
      ]}
    >
      <tbody>
        {preview.invoices.map((invoice) => {
          const isValid = invoice.issues.length === 0;
          return (
            <tr key={invoice.lines[0]} className={isValid ? undefined : 'import-table__invalid'}>
              <td>
                <StatusBadge invoice={invoice} />
              </td>
              <th scope="row" className="import-table__number">
                {invoice.invoiceNumber || t('invoices:import.no_number')}
              </th>
              <td>{invoice.recipientName}</td>
              <td className="import-table__date">{formatDate(invoice.invoiceDate, language)}</td>
              <td>{formatLineRanges(invoice.lines)}</td>
              <td className="data-table__number">{count.format(invoice.rows)}</td>
              <td className="data-table__number">
                {isValid ? formatMoney(invoice.grossMinor, invoice.currency, language) : '–'}
              </td>
              <td>
                {!isValid && (
                  <ul className="import-table__issues">
                    {invoice.issues.map((issue) => (
                      <li key={`${issue.line}-${issue.column}-${issue.code}`}>{issueText(t, issue)}</li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </DataTable>
  );
}

function ResultCard({ result, onAgain }: { result: ImportResult; onAgain: () => void }) {
  const { t } = useTranslation();
  const heading = useFocusOnAppear<HTMLHeadingElement>(true);
  return (
    <div className="card card--border import-page__section stack">
      <h2 ref={heading} tabIndex={-1} className="section-title">
        {t('invoices:import.result_title')}
      </h2>
      <p className="notice notice--success">
        {t('invoices:import.result_created', { count: result.created.length })}
      </p>
      {result.skipped > 0 && <p>{t('invoices:import.result_skipped', { count: result.skipped })}</p>}
      <h3 className="import-page__subtitle">{t('invoices:import.result_list')}</h3>
      <ul className="import-page__created">
        {result.created.map((invoice) => (
          <li key={invoice.invoiceID}>
            <Link to={paths.invoiceDetail.getHref(invoice.invoiceID)}>
              {t('invoices:import.open_invoice', { number: invoice.invoiceNumber })}
            </Link>
          </li>
        ))}
      </ul>
      <div className="button-row">
        <Link className="btn btn--primary" to={paths.invoiceSend.getHref()}>
          {t('invoices:import.go_to_pending')}
        </Link>
        <Button variant="secondary" label={t('invoices:import.import_another')} onClick={onAgain} />
      </div>
    </div>
  );
}

/**
 * `/invoice/fileupload` (spec §2; docs/INVOICES.md, Import): download the template, choose a CSV or
 * Excel file, see every invoice of it with each bad line's reason, then import the valid ones in one
 * go. The server parses the file (no spreadsheet library in the browser) and saves nothing until the
 * confirm, which carries one idempotency key per preview.
 */
export function InvoiceImportPage() {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const inputID = useId();
  const hintID = useId();
  const input = useRef<HTMLInputElement>(null);
  const [chosenName, setChosenName] = useState<string | null>(null);
  const previewCall = usePreviewInvoiceImport();
  const importCall = useImportInvoices();
  const [checked, setChecked] = useState<Checked | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [fileError, setFileError] = useState<{ title: string | null; reason: string } | null>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const previewHeading = useFocusOnAppear<HTMLHeadingElement>(checked !== null);

  function clearState() {
    previewCall.reset();
    importCall.reset();
    setChecked(null);
    setResult(null);
    setFileError(null);
    setImportError(null);
  }

  /** Empties the picker: choosing the same (corrected) file again then fires a change. */
  function clearInput() {
    if (input.current) input.current.value = '';
    setChosenName(null);
  }

  /** "Choose another file" and "Import another file": back to the start, focus on the picker. */
  function startOver() {
    clearState();
    clearInput();
    input.current?.focus();
  }

  function refuse(error: { title: string | null; reason: string }) {
    setFileError(error);
    clearInput();
  }

  function choose(file: File | undefined) {
    clearState();
    setChosenName(file?.name ?? null);
    if (!file) return;
    const problem = importFileProblem(file);
    const format = importFormatOf(file);
    if (problem || !format) {
      refuse({ title: null, reason: translateCode(t, problem ?? 'invoices:import.unsupported_file') });
      return;
    }
    previewCall.mutate(
      { file, format },
      {
        onSuccess: (preview) => setChecked({ file, format, preview, idempotencyKey: newIdempotencyKey() }),
        // Spec §8 "unable to upload file", with the reason when the server gave one.
        onError: (failure) =>
          refuse({ title: t('invoices:import.upload_failed'), reason: errorText(t, failure) }),
      },
    );
  }

  function confirm() {
    if (!checked || importCall.isPending) return;
    setImportError(null);
    importCall.mutate(
      { file: checked.file, format: checked.format, idempotencyKey: checked.idempotencyKey },
      {
        onSuccess: (answer) => {
          setResult(answer);
          setChecked(null);
          clearInput();
        },
        onError: (failure) => setImportError(errorText(t, failure)),
      },
    );
  }

  const preview = checked?.preview ?? null;
  const importable = preview ? importableInvoices(preview) : [];
  const totals = totalsByCurrency(importable);

  return (
    <div className="invoice-page import-page stack">
      <h1 className="page__title">{t('invoices:import.title')}</h1>
      <p className="page__lead">{t('invoices:import.lead')}</p>

      <TemplateSection />

      <section className="card card--border import-page__section stack" aria-labelledby="import-file-title">
        <h2 id="import-file-title" className="section-title">
          {t('invoices:import.file_title')}
        </h2>
        <div className="field">
          <label htmlFor={inputID} className="field__label">
            {t('invoices:import.file_label')}
          </label>
          <FileInput
            inputRef={input}
            id={inputID}
            accept={IMPORT_ACCEPT}
            describedBy={hintID}
            disabled={previewCall.isPending || importCall.isPending}
            fileNames={chosenName ? [chosenName] : []}
            onFiles={(files) => choose(files[0])}
          />
          <p id={hintID} className="field__hint">
            {t('invoices:import.file_hint')}
          </p>
        </div>
        {previewCall.isPending && (
          <p className="import-page__checking">
            <Spinner size="small" label={t('invoices:import.checking')} />
            <span aria-hidden="true">{t('invoices:import.checking')}</span>
          </p>
        )}
        {fileError && (
          <div className="notice notice--error" role="alert">
            <p>
              {fileError.title && <strong>{fileError.title} </strong>}
              {fileError.reason}
            </p>
          </div>
        )}
      </section>

      {checked && preview && (
        <section
          className="card card--border import-page__section stack"
          aria-labelledby="import-preview-title"
        >
          <h2 id="import-preview-title" ref={previewHeading} tabIndex={-1} className="section-title">
            {t('invoices:import.preview_title', { name: checked.file.name })}
          </h2>
          {preview.fileIssues.length > 0 && (
            <div className="notice notice--error" role="alert">
              <div>
                <p>
                  <strong>{t('invoices:import.file_issues')}</strong>
                </p>
                <ul className="import-table__issues">
                  {preview.fileIssues.map((issue) => (
                    <li key={`${issue.line}-${issue.column}-${issue.code}`}>
                      {issueText(t, issue, { withHeader: true })}
                    </li>
                  ))}
                </ul>
              </div>
            </div>
          )}
          {preview.invoices.length > 0 && (
            <>
              <div className="import-page__summary">
                <ul className="import-page__counts">
                  <li className="import-page__count--ok">
                    {t('invoices:import.valid_count', { count: preview.valid })}
                  </li>
                  <li className={preview.invalid > 0 ? 'import-page__count--error' : undefined}>
                    {t('invoices:import.invalid_count', { count: preview.invalid })}
                  </li>
                </ul>
                {totals.length > 0 && (
                  <CurrencyTotals
                    totals={totals}
                    caption={t('invoices:import.totals_caption')}
                    language={language}
                  />
                )}
              </div>
              <PreviewTable preview={preview} />
            </>
          )}
          {preview.valid === 0 && preview.fileIssues.length === 0 && (
            <p className="notice notice--warning">{t('invoices:import.nothing_to_import')}</p>
          )}
          {preview.valid > 0 && preview.invalid > 0 && (
            <p className="muted">{t('invoices:import.skipped_note')}</p>
          )}
          {importError && (
            <div className="notice notice--error" role="alert">
              <p>
                <strong>{t('invoices:import.import_failed')} </strong>
                {importError}
              </p>
            </div>
          )}
          <div className="button-row">
            {preview.valid > 0 && (
              <Button
                variant="success"
                loading={importCall.isPending}
                label={t('invoices:import.confirm', { count: preview.valid })}
                onClick={confirm}
              />
            )}
            <Button
              variant="secondary"
              disabled={importCall.isPending}
              label={t('invoices:import.choose_another')}
              onClick={startOver}
            />
          </div>
        </section>
      )}

      <div role="status">{result && <ResultCard result={result} onAgain={startOver} />}</div>
    </div>
  );
}
