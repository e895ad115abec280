import type { DebtClaim, Language } from '@portal/contracts';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/ui/list-results';
import { ErrorNotice } from '../../../components/ui/load-states';
import { MoneyCells } from '../../../components/ui/money-cells';
import { formatDate } from '../../../lib/format';
import { formatMoney } from '../../../lib/money';
import { useDebtClaim, useDebtClaims } from '../api/debt-claims';
import { RowsTable } from './rows-table';
import { OpenStatementCell, StatementDialog } from './statement';
import '../texts';

/**
 * One claim as its statement: what is owed and why (each charge back, and the payouts set off against
 * them), how to pay it (our bankgiro, the OCR, the due date) and what was paid.
 */
function ClaimStatement({
  claim,
  language,
  onHide,
}: {
  claim: DebtClaim;
  language: Language;
  onHide: () => void;
}) {
  const { t } = useTranslation();
  const detail = useDebtClaim(claim.claimID);
  const money = (minor: number) => formatMoney(minor, claim.currency, language);
  const moneyCells = (amounts: readonly number[]) => (
    <MoneyCells amounts={amounts} currency={claim.currency} language={language} />
  );
  const title = t('reports:debtClaims.detailTitle', { number: claim.number });
  const facts: [string, string][] = [
    [t('reports:debtClaims.amount'), money(claim.amountMinor)],
    [t('reports:debtClaims.paid'), money(claim.paidMinor)],
    [t('reports:debtClaims.remaining'), money(claim.remainingMinor)],
    [t('reports:debtClaims.claimDate'), formatDate(claim.claimDate, language)],
    [t('reports:debtClaims.dueDate'), formatDate(claim.dueDate, language)],
    [t('reports:debtClaims.bankgiro'), claim.bankgiro],
    [t('reports:debtClaims.ocr'), claim.ocr],
    [t('reports:debtClaims.state'), t(`reports:debtClaims.states.${claim.state}`)],
  ];
  return (
    <StatementDialog
      title={title}
      subtitle={
        claim.state === 'paid' && claim.paidDate
          ? t('reports:debtClaims.paidOn', { date: formatDate(claim.paidDate, language) })
          : t('reports:debtClaims.howToPay', {
              amount: money(claim.remainingMinor),
              bankgiro: claim.bankgiro,
              ocr: claim.ocr,
              date: formatDate(claim.dueDate, language),
            })
      }
      onHide={onHide}
      head={
        <>
          <p>{t('reports:debtClaims.why')}</p>
          <dl className="facts" data-testid="debt-claim-facts">
            {facts.map(([label, value]) => (
              <Fragment key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </Fragment>
            ))}
          </dl>
        </>
      }
      detail={detail}
    >
      {(data) => (
        <>
          <RowsTable
            caption={t('reports:debtClaims.rowsTitle', { number: claim.number })}
            rows={data.rows}
            currency={claim.currency}
            language={language}
            total={{
              label: t('reports:debtClaims.owed'),
              amounts: [claim.grossMinor, claim.feeMinor, -claim.amountMinor],
            }}
          />
          {data.payments.length > 0 && (
            <DataTable
              caption={t('reports:debtClaims.paymentsTitle')}
              columns={[
                { label: t('reports:debtClaims.paymentDate') },
                { label: t('reports:debtClaims.reference') },
                { label: t('reports:debtClaims.paymentAmount'), numeric: true },
              ]}
            >
              <tbody>
                {data.payments.map((p) => (
                  <tr key={p.paymentID}>
                    <th scope="row">{formatDate(p.paymentDate, language)}</th>
                    <td>{p.reference}</td>
                    {moneyCells([p.amountMinor])}
                  </tr>
                ))}
              </tbody>
            </DataTable>
          )}
        </>
      )}
    </StatementDialog>
  );
}

/**
 * "What you owe us" on the transfer costs page (docs/MONEY.md "Debt claims"): the claims we made on
 * the issuer for charge backs no payouts covered, apart from our payouts to it. Shown only when there
 * is one; opening one shows its statement.
 */
export function DebtClaimsSection({ language }: { language: Language }) {
  const { t } = useTranslation();
  const claims = useDebtClaims();
  const [open, setOpen] = useState<DebtClaim | null>(null);
  if (claims.isError) return <ErrorNotice error={claims.error} />;
  const items = claims.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section className="stack" aria-labelledby="debt-claims-title">
      <h2 id="debt-claims-title" className="section-title">
        {t('reports:debtClaims.title')}
      </h2>
      <p>{t('reports:debtClaims.intro')}</p>
      <DataTable
        caption={t('reports:debtClaims.title')}
        className="data-table data-table--cards"
        columns={[
          { label: t('reports:debtClaims.number') },
          { label: t('reports:debtClaims.claimDate') },
          { label: t('reports:debtClaims.dueDate') },
          { label: t('reports:debtClaims.amount'), numeric: true },
          { label: t('reports:debtClaims.paid'), numeric: true },
          { label: t('reports:debtClaims.remaining'), numeric: true },
          { label: t('reports:debtClaims.state') },
        ]}
      >
        <tbody>
          {items.map((c) => (
            <tr key={c.claimID}>
              <OpenStatementCell
                label={t('reports:debtClaims.number')}
                number={c.number}
                openLabel={t('reports:debtClaims.open', { number: c.number })}
                onOpen={() => setOpen(c)}
              />
              <td data-label={t('reports:debtClaims.claimDate')}>{formatDate(c.claimDate, language)}</td>
              <td data-label={t('reports:debtClaims.dueDate')}>{formatDate(c.dueDate, language)}</td>
              <MoneyCells
                amounts={[c.amountMinor, c.paidMinor, c.remainingMinor]}
                currency={c.currency}
                language={language}
                labels={[
                  t('reports:debtClaims.amount'),
                  t('reports:debtClaims.paid'),
                  t('reports:debtClaims.remaining'),
                ]}
              />
              <td data-label={t('reports:debtClaims.state')}>{t(`reports:debtClaims.states.${c.state}`)}</td>
            </tr>
          ))}
        </tbody>
      </DataTable>
      {open && <ClaimStatement claim={open} language={language} onHide={() => setOpen(null)} />}
    </section>
  );
}
