import { MESSAGE_LIMITS, type Message } from '@portal/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ErrorNotice, LoadFailure } from '../../../components/ui/load-states';
import { Pagination } from '../../../components/ui/pagination';
import { Spinner } from '../../../components/ui/spinner';
import { TextArea } from '../../../components/ui/text-area';
import { TextInput } from '../../../components/ui/text-input';
import { paths } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { loadSchemas } from '../../../lib/load-schemas';
import { useInvoice } from '../api/get-invoice';
import { useCreateMessage, useMarkMessageRead, useMessages } from '../api/messages';
import '../texts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The invoice a `?invoiceID=` names, when it looks like an id; anything else shows every message. */
export function invoiceIDOf(value: string | null): string | null {
  return value && UUID.test(value) ? value : null;
}

export interface MessagesPageProps {
  invoiceID: string | null;
  /** Whether the user may open the invoice (its number and a link back). */
  canViewInvoice: boolean;
}

/**
 * `/invoice/messages` (spec §2, optional `invoiceID`): the messages newest first, unread ones marked;
 * opening one marks it read, which the header's count follows. A form writes to us, about the
 * invoice when one is given.
 */
export function MessagesPage({ invoiceID, canViewInvoice }: MessagesPageProps) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const [openID, setOpenID] = useState<string | null>(null);
  const list = useMessages({ invoiceID, page, pageSize });
  const invoice = useInvoice(invoiceID ?? '', { enabled: Boolean(invoiceID) && canViewInvoice });
  const markRead = useMarkMessageRead();
  const invoiceNumber =
    invoice.data?.invoiceNumber ?? list.data?.items.find((m) => m.invoiceNumber)?.invoiceNumber ?? null;

  function toggle(message: Message) {
    const opening = openID !== message.messageID;
    setOpenID(opening ? message.messageID : null);
    if (opening && !message.read) markRead.mutate(message.messageID);
  }

  return (
    <div className="messages-page stack">
      {invoiceID && canViewInvoice && (
        <p className="invoice-page__back">
          <Link to={paths.invoiceDetail.getHref(invoiceID)}>{t('invoices:messages.back_to_invoice')}</Link>
        </p>
      )}
      <h1 className="page__title">
        {invoiceID
          ? invoiceNumber
            ? t('invoices:messages.title_invoice', { number: invoiceNumber })
            : t('invoices:messages.title_invoice_unknown')
          : t('invoices:messages.title')}
      </h1>
      {invoiceID && (
        <p className="page__lead">
          <Link to={paths.invoiceMessages.getHref()}>{t('invoices:messages.show_all')}</Link>
        </p>
      )}

      <Card header={t('invoices:messages.list_title')}>
        {list.isPending ? (
          <Spinner />
        ) : list.isError ? (
          <LoadFailure error={list.error} onRetry={() => void list.refetch()} />
        ) : list.data.items.length === 0 ? (
          <p className="muted">{t('invoices:messages.empty')}</p>
        ) : (
          <>
            <p className="muted">{t('invoices:messages.unread_count', { count: list.data.unread })}</p>
            <ul className="message-list" aria-label={t('invoices:messages.list_title')}>
              {list.data.items.map((message) => {
                const open = openID === message.messageID;
                const bodyID = `message-${message.messageID}`;
                return (
                  <li
                    key={message.messageID}
                    className={['message-list__item', !message.read && 'message-list__item--unread']
                      .filter(Boolean)
                      .join(' ')}
                  >
                    <button
                      type="button"
                      className="message-list__head"
                      aria-expanded={open}
                      aria-controls={bodyID}
                      onClick={() => toggle(message)}
                    >
                      <span className="message-list__title">
                        {!message.read && <span className="tag">{t('invoices:messages.unread')}</span>}{' '}
                        {message.title}
                      </span>
                      <span className="message-list__meta">
                        {message.author} · {formatDateTime(message.date, language)}
                        {message.invoiceNumber &&
                          ` · ${t('invoices:messages.invoice', { number: message.invoiceNumber })}`}
                      </span>
                    </button>
                    {open && (
                      <div id={bodyID} className="message-list__body">
                        {message.message}
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
            <Pagination
              page={page}
              pageSize={pageSize}
              total={list.data.total}
              onPageChange={setPage}
              onPageSizeChange={(size) => {
                setPageSize(size);
                setPage(1);
              }}
              label={t('invoices:messages.pages')}
            />
          </>
        )}
      </Card>

      <WriteMessage invoiceID={invoiceID} invoiceNumber={invoiceNumber} />
    </div>
  );
}

type FieldErrors = Partial<Record<'title' | 'message', string>>;

function WriteMessage({
  invoiceID,
  invoiceNumber,
}: {
  invoiceID: string | null;
  invoiceNumber: string | null;
}) {
  const { t } = useTranslation();
  const create = useCreateMessage();
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sent, setSent] = useState(false);
  /** What binds a required field to its state, its error and the contract's limit. */
  const field = (name: 'title' | 'message', value: string, onChange: (value: string) => void) => ({
    name,
    value,
    onChange,
    error: errors[name],
    limit: MESSAGE_LIMITS[name],
    maxLength: MESSAGE_LIMITS[name],
    required: true,
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSent(false);
    const { createMessageBodySchema } = await loadSchemas();
    const parsed = createMessageBodySchema.safeParse({ invoiceID, title, message });
    if (!parsed.success) {
      const found: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'title' || field === 'message') && !found[field]) found[field] = issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: () => {
        setTitle('');
        setMessage('');
        setSent(true);
      },
    });
  }

  return (
    <Card header={t('invoices:messages.write.title')}>
      <form className="stack" noValidate onSubmit={(event) => void submit(event)}>
        {invoiceID && (
          <p className="muted">
            {invoiceNumber
              ? t('invoices:messages.write.about_invoice', { number: invoiceNumber })
              : t('invoices:messages.write.about_this_invoice')}
          </p>
        )}
        <TextInput label={t('invoices:messages.write.subject')} {...field('title', title, setTitle)} />
        <TextArea
          label={t('invoices:messages.write.message')}
          rows={5}
          {...field('message', message, setMessage)}
        />
        <div role="status">
          {sent && <p className="notice notice--success">{t('invoices:messages.write.sent')}</p>}
        </div>
        {create.isError && <ErrorNotice error={create.error} />}
        <div className="button-row">
          <Button type="submit" loading={create.isPending} label={t('invoices:messages.write.send')} />
        </div>
      </form>
    </Card>
  );
}
