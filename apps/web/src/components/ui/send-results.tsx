import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../config/paths';

/**
 * What a send did, an invoice a line: sent, with a link to the invoice, or why not. The region is a
 * status, there (empty) before the first send, so that a screen reader reads each outcome out.
 */
export function SendResults<R extends { invoiceID: string; ok: boolean }>({
  title,
  results,
  numberOf,
  sent,
  failed,
  openLabel,
  children,
}: {
  title: string;
  results: readonly R[] | null;
  /** The invoice's name at the start of its line, if the outcome's text does not say it. */
  numberOf?: (result: R) => string;
  /** A sent invoice's text, before the link to it. */
  sent: (result: R) => string;
  /** Why an invoice was not sent. */
  failed: (result: R) => string;
  /** The link's text, e.g. "Open the invoice". */
  openLabel: string;
  /** Under the list. */
  children?: ReactNode;
}) {
  return (
    <div role="status" className="send-results">
      {results && (
        <div className="card card--border send-results__card">
          <h2 className="section-title">{title}</h2>
          <ul className="send-results__list">
            {results.map((result) => (
              <li key={result.invoiceID} className={result.ok ? 'send-results__ok' : 'send-results__failed'}>
                {numberOf && (
                  <>
                    <span className="send-results__number">{numberOf(result)}</span>{' '}
                  </>
                )}
                {result.ok ? (
                  <>
                    {sent(result)} <Link to={paths.invoiceDetail.getHref(result.invoiceID)}>{openLabel}</Link>
                  </>
                ) : (
                  failed(result)
                )}
              </li>
            ))}
          </ul>
          {children}
        </div>
      )}
    </div>
  );
}
