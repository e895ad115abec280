import type {
  FortnoxConnection,
  FortnoxInvoice,
  PendingInvoice,
  sendInvoicesResponseSchema,
  TakeOverFortnoxInvoicesResponse,
} from '@portal/contracts';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CheckCell } from '../../../components/ui/check-cells';
import { DataTable } from '../../../components/ui/list-results';
import { ErrorNotice, LoadFailure } from '../../../components/ui/load-states';
import { MoneyCells } from '../../../components/ui/money-cells';
import { SendResults } from '../../../components/ui/send-results';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { translateCode } from '../../../lib/messages';
import { formatMoney } from '../../../lib/money';
import { useCompleteFortnoxConnection } from '../api/complete-fortnox-connection';
import { useDisconnectFortnox } from '../api/disconnect-fortnox';
import { useFortnoxConnection } from '../api/get-fortnox-connection';
import { useFortnoxInvoices } from '../api/list-fortnox-invoices';
import { useStartFortnoxConnection } from '../api/start-fortnox-connection';
import { useTakeOverFortnoxInvoices } from '../api/take-over-fortnox-invoices';
import '../texts';

type SendResult = z.infer<typeof sendInvoicesResponseSchema>['results'][number];
type TakeOverResult = TakeOverFortnoxInvoicesResponse['results'][number];

/** What the route puts in for sending: the confirmation and send of `/invoice/send`. */
export interface SendSlotProps {
  invoices: PendingInvoice[];
  onSent: (results: SendResult[]) => void;
  onHide: () => void;
}

const STATUS_KEYS: Record<FortnoxInvoice['status'], string> = {
  available: 'fortnox:status.available',
  pending: 'fortnox:status.pending',
  noxfinans: 'fortnox:status.noxfinans',
  not_booked: 'fortnox:status.not_booked',
  part_paid: 'fortnox:status.part_paid',
  due_passed: 'fortnox:status.due_passed',
  due_too_soon: 'fortnox:status.due_too_soon',
};

const SELECTABLE: ReadonlySet<FortnoxInvoice['status']> = new Set(['available', 'pending']);

/**
 * `/invoice/send-business` (spec §1, §2; issue #13): the connection to the company's Fortnox and, when
 * it is active, its unpaid invoices as Fortnox pages them. An inactive connection (never connected,
 * disconnected, or refused by Fortnox) shows the explanatory message with a connect button (spec §6).
 * The chosen invoices are taken over as pending invoices and sent through `renderSend`, the fee
 * preview, confirmation and send of `/invoice/send`. Fortnox sends the browser back here with `code`
 * (or `error`) and `state`, which the page hands to the server once and then removes from the address.
 */
export function BusinessInvoicesPage({
  renderSend,
  goTo = (url) => window.location.assign(url),
}: {
  renderSend: (props: SendSlotProps) => ReactNode;
  /** Where the browser goes to Fortnox's approval page; a test passes its own. */
  goTo?: (url: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const [params, setParams] = useSearchParams();
  const complete = useCompleteFortnoxConnection();
  const start = useStartFortnoxConnection();
  const disconnect = useDisconnectFortnox();
  const takeOver = useTakeOverFortnoxInvoices();
  const returned = params.get('state');
  const handled = useRef(false);
  const connection = useFortnoxConnection(!returned || complete.isError || complete.isSuccess);
  const isActive = connection.data?.status === 'active';
  const [page, setPage] = useState(1);
  const invoices = useFortnoxInvoices(page, isActive);
  const [selected, setSelected] = useState<ReadonlyMap<string, FortnoxInvoice>>(new Map());
  const [confirming, setConfirming] = useState<PendingInvoice[] | null>(null);
  const [notTaken, setNotTaken] = useState<TakeOverResult[]>([]);
  const [results, setResults] = useState<SendResult[] | null>(null);

  useEffect(() => {
    if (!returned || handled.current) return;
    handled.current = true;
    const code = params.get('code') ?? undefined;
    const error = params.get('error') ?? undefined;
    complete.mutate(
      { state: returned, ...(code ? { code } : {}), ...(error ? { error } : {}) },
      { onSettled: () => setParams({}, { replace: true }) },
    );
  }, [returned, params, complete, setParams]);

  // Fortnox refused our access meanwhile: the connection is read again and says so.
  const refused = invoices.error instanceof ApiError && invoices.error.code === 'fortnox.not_connected';
  const { refetch: refetchConnection } = connection;
  useEffect(() => {
    if (refused) void refetchConnection();
  }, [refused, refetchConnection]);

  function toggle(invoice: FortnoxInvoice, checked: boolean) {
    const next = new Map(selected);
    if (checked) next.set(invoice.documentNumber, invoice);
    else next.delete(invoice.documentNumber);
    setSelected(next);
  }

  function preview() {
    setResults(null);
    setNotTaken([]);
    takeOver.mutate([...selected.keys()], {
      onSuccess: (answer) => {
        setNotTaken(answer.results.filter((r) => !r.ok));
        if (answer.invoices.length > 0) setConfirming(answer.invoices);
      },
    });
  }

  function sent(answer: SendResult[]) {
    setConfirming(null);
    setResults(answer);
    setSelected(new Map());
    void invoices.refetch();
  }

  const chosen = [...selected.values()];
  const items = invoices.data?.items ?? [];
  const totals = new Map<string, number>();
  for (const invoice of chosen)
    totals.set(invoice.currency, (totals.get(invoice.currency) ?? 0) + invoice.totalMinor);

  return (
    <div className="invoice-page stack business-invoices">
      <div className="business-invoices__head">
        <h1 className="page__title">{t('fortnox:title')}</h1>
        {connection.data?.demo && (
          <span className="demo-badge" title={t('fortnox:demo_note')}>
            {t('fortnox:demo_badge')}
          </span>
        )}
      </div>
      <p className="page__lead">{t('fortnox:lead')}</p>

      {complete.isPending && (
        <p role="status" className="notice">
          {t('fortnox:connection.completing')}
        </p>
      )}
      {complete.isError && <ErrorNotice error={complete.error} />}

      {connection.isPending && !complete.isPending && <Spinner />}
      {connection.isError && <LoadFailure error={connection.error} />}
      {connection.data && (
        <ConnectionCard
          connection={connection.data}
          language={language}
          leaving={start.isPending || start.isSuccess}
          disconnecting={disconnect.isPending}
          onConnect={() => start.mutate(undefined, { onSuccess: ({ redirectUrl }) => goTo(redirectUrl) })}
          onDisconnect={() => disconnect.mutate()}
        />
      )}
      {start.isError && <ErrorNotice error={start.error} />}

      <SendResults
        title={t('fortnox:results.title')}
        results={results}
        sent={(result) => t('fortnox:results.sent', { number: result.invoiceNumber, ocr: result.ocr ?? '' })}
        failed={(result) =>
          t('fortnox:results.failed', {
            number: result.invoiceNumber,
            reason: translateCode(t, result.code ?? 'server.internal'),
          })
        }
        openLabel={t('fortnox:results.open')}
      >
        <Link to={paths.invoices.getHref()}>{t('fortnox:results.all_invoices')}</Link>
      </SendResults>

      {isActive && (
        <section className="stack" aria-labelledby="fortnox-invoices-title">
          <h2 id="fortnox-invoices-title" className="section-title">
            {t('fortnox:list.caption')}
          </h2>
          {invoices.isPending && <Spinner />}
          {invoices.isError && !refused && (
            <LoadFailure error={invoices.error} onRetry={() => void invoices.refetch()} />
          )}
          {invoices.isSuccess && items.length === 0 && (
            <p className="empty-state">{t('fortnox:list.empty')}</p>
          )}
          {items.length > 0 && (
            <DataTable
              caption={t('fortnox:list.caption')}
              columns={[
                {
                  label: <span className="visually-hidden">{t('fortnox:list.status')}</span>,
                  className: 'data-table__check',
                },
                { label: t('fortnox:list.number'), className: 'data-table__key' },
                { label: t('fortnox:list.customer') },
                { label: t('fortnox:list.invoice_date') },
                { label: t('fortnox:list.due_date') },
                { label: t('fortnox:list.total'), numeric: true },
                { label: t('fortnox:list.balance'), numeric: true },
                { label: t('fortnox:list.status') },
              ]}
            >
              <tbody>
                {items.map((invoice) => {
                  const selectable = SELECTABLE.has(invoice.status);
                  return (
                    <tr
                      key={invoice.documentNumber}
                      className={
                        selected.has(invoice.documentNumber)
                          ? 'is-selected'
                          : selectable
                            ? undefined
                            : 'business-invoices__unavailable'
                      }
                    >
                      <CheckCell
                        label={t('fortnox:list.select_invoice', { number: invoice.documentNumber })}
                        checked={selected.has(invoice.documentNumber)}
                        disabled={!selectable}
                        onChange={(checked) => toggle(invoice, checked)}
                      />
                      <th scope="row">{invoice.documentNumber}</th>
                      <td>{invoice.customerName}</td>
                      <td>{formatDate(invoice.invoiceDate, language)}</td>
                      <td>{formatDate(invoice.dueDate, language)}</td>
                      <MoneyCells
                        amounts={[invoice.totalMinor, invoice.balanceMinor]}
                        currency={invoice.currency}
                        language={language}
                      />
                      <td>
                        <span
                          className={`business-invoices__status business-invoices__status--${invoice.status}`}
                        >
                          {t(STATUS_KEYS[invoice.status])}
                        </span>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </DataTable>
          )}
          {invoices.data && invoices.data.hiddenSent > 0 && (
            <p className="page__lead">{t('fortnox:list.hidden_sent', { count: invoices.data.hiddenSent })}</p>
          )}
          {invoices.data && invoices.data.totalPages > 1 && (
            <nav className="button-row business-invoices__pages" aria-label={t('fortnox:list.caption')}>
              <Button
                variant="secondary"
                label={t('fortnox:list.previous')}
                disabled={page <= 1}
                onClick={() => setPage(page - 1)}
              />
              <span>
                {t('fortnox:list.page', { page: invoices.data.page, pages: invoices.data.totalPages })}
              </span>
              <Button
                variant="secondary"
                label={t('fortnox:list.next')}
                disabled={page >= invoices.data.totalPages}
                onClick={() => setPage(page + 1)}
              />
            </nav>
          )}

          <div className="send-page__footer">
            <div className="send-page__summary" aria-live="polite">
              <p>{t('fortnox:send.selected', { count: chosen.length })}</p>
              {[...totals].map(([currency, minor]) => (
                <p key={currency}>{formatMoney(minor, currency, language)}</p>
              ))}
            </div>
            <div className="send-page__send">
              {takeOver.isError && <ErrorNotice error={takeOver.error} />}
              {notTaken.map((r) => (
                <p key={r.documentNumber} className="notice notice--error" role="alert">
                  {t('fortnox:send.not_taken', {
                    number: r.documentNumber,
                    reason: translateCode(t, r.code ?? 'server.internal'),
                  })}
                </p>
              ))}
              <Button
                variant="success"
                loading={takeOver.isPending}
                disabled={chosen.length === 0}
                label={takeOver.isPending ? t('fortnox:send.taking_over') : t('fortnox:send.preview')}
                onClick={preview}
              />
            </div>
          </div>
        </section>
      )}
      {confirming &&
        renderSend({
          invoices: confirming,
          onSent: sent,
          onHide: () => {
            setConfirming(null);
            void invoices.refetch();
          },
        })}
    </div>
  );
}

function ConnectionCard({
  connection,
  language,
  leaving,
  disconnecting,
  onConnect,
  onDisconnect,
}: {
  connection: FortnoxConnection;
  language: string;
  leaving: boolean;
  disconnecting: boolean;
  onConnect: () => void;
  onDisconnect: () => void;
}) {
  const { t } = useTranslation();
  if (connection.status === 'active')
    return (
      <Card header={t('fortnox:connection.title')} className="business-invoices__connection">
        <p>
          {t('fortnox:connection.connected', {
            company: connection.companyName ?? '',
            orgNo: connection.companyOrganizationNo ?? '',
            date: formatDate(connection.connectedAt?.slice(0, 10), language),
          })}
        </p>
        <Button
          variant="secondary"
          loading={disconnecting}
          label={t('fortnox:connection.disconnect')}
          onClick={onDisconnect}
        />
      </Card>
    );
  const message =
    connection.status === 'not_connected'
      ? t('fortnox:connection.not_connected')
      : connection.reason === 'refused'
        ? t('fortnox:connection.revoked_refused')
        : t('fortnox:connection.revoked_disconnected');
  return (
    <div className="notice notice--warning business-invoices__inactive" role="alert">
      <p>{message}</p>
      {leaving ? (
        <p role="status">{t('fortnox:connection.redirecting')}</p>
      ) : (
        <Button
          variant="primary"
          label={
            connection.status === 'not_connected'
              ? t('fortnox:connection.connect')
              : t('fortnox:connection.reconnect')
          }
          onClick={onConnect}
        />
      )}
    </div>
  );
}
