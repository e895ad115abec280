import type { Language, TransferCost } from '@portal/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { DateRange } from '../../../components/ui/date-field';
import { DataTable, ListPagination, type ListPaging, ListResults } from '../../../components/ui/list-results';
import { MoneyCells } from '../../../components/ui/money-cells';
import { formatDate } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { errorText } from '../../../lib/messages';
import { formatMoney } from '../../../lib/money';
import { useDownloadTransferCostBgmax } from '../api/download-transfer-cost-bgmax';
import { useTransferCost } from '../api/get-transfer-cost';
import { type TransferCostsQuery, useTransferCosts } from '../api/list-transfer-costs';
import '../texts';
import { DebtClaimsSection } from './debt-claims';
import { RowsTable } from './rows-table';
import { OpenStatementCell, StatementDialog } from './statement';

function DownloadButton({ settlement }: { settlement: Pick<TransferCost, 'settlementID' | 'number'> }) {
  const { t } = useTranslation();
  const download = useDownloadTransferCostBgmax();
  return (
    <>
      <Button
        variant="secondary"
        label={t('reports:transferCosts.download')}
        aria-label={`${t('reports:transferCosts.download')} ${settlement.number}`}
        loading={download.isPending}
        onClick={() => download.mutate(settlement)}
      />
      {download.isError && (
        <span className="notice notice--error" role="alert">
          {errorText(t, download.error)}
        </span>
      )}
    </>
  );
}

/** One settlement in a dialog: its totals, its rows a page at a time, and its BGMAX file. */
function SettlementDialog({
  settlement,
  language,
  onHide,
}: {
  settlement: TransferCost;
  language: Language;
  onHide: () => void;
}) {
  const { t } = useTranslation();
  const [paging, setPaging] = useState<ListPaging>({ page: 1, pageSize: 25 });
  const { page, pageSize } = paging;
  const detail = useTransferCost(settlement.settlementID, page, pageSize);
  const money = (minor: number) => formatMoney(minor, settlement.currency, language);
  return (
    <StatementDialog
      title={t('reports:transferCosts.detailTitle', { number: settlement.number })}
      subtitle={`${t('reports:transferCosts.payoutDate')}: ${formatDate(settlement.payoutDate, language)} · ${t('reports:transferCosts.total')}: ${money(settlement.totalPayoutMinor)}`}
      onHide={onHide}
      head={
        settlement.totalPayoutMinor >= 0 && (
          <div className="button-row">
            <DownloadButton settlement={settlement} />
          </div>
        )
      }
      detail={detail}
    >
      {(data) => (
        <>
          <RowsTable
            caption={t('reports:transferCosts.detailTitle', { number: settlement.number })}
            rows={data.rows.items}
            firstPosition={(page - 1) * pageSize}
            currency={settlement.currency}
            language={language}
            total={{
              label: t('reports:transferCosts.total'),
              amounts: [settlement.grossMinor, settlement.feeMinor, settlement.totalPayoutMinor],
            }}
          />
          <ListPagination
            query={paging}
            total={data.rows.total}
            label={t('reports:transferCosts.rows')}
            onQueryChange={(patch) => setPaging((p) => ({ ...p, ...patch }))}
          />
        </>
      )}
    </StatementDialog>
  );
}

/**
 * `/transfercosts` (spec §2): our payouts to the issuer. Each settlement with its created and payout
 * dates, gross, fees and what was paid out, newest first, filtered by created date and paged; opening
 * one shows its rows, and its BGMAX file can be downloaded for the issuer's accounting. Below them,
 * apart, what the issuer owes us: its debt claims, each with its statement (docs/MONEY.md).
 */
export function TransferCostsPage() {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const [query, setQuery] = useState<TransferCostsQuery>({ page: 1, pageSize: 25 });
  const [open, setOpen] = useState<TransferCost | null>(null);
  const list = useTransferCosts(query);
  const update = (patch: Partial<TransferCostsQuery>) => setQuery((q) => ({ ...q, ...patch }));

  return (
    <div className="list-page stack">
      <h1 className="page__title">{t('reports:transferCosts.title')}</h1>
      <p className="page__lead">{t('reports:transferCosts.intro')}</p>
      <DateRange
        legend={t('reports:transferCosts.created')}
        hideLegend
        fromLabel={t('reports:transferCosts.from')}
        toLabel={t('reports:transferCosts.to')}
        from={query.from ?? ''}
        to={query.to ?? ''}
        onChange={(range) => update({ ...range, page: 1 })}
      />
      <ListResults
        list={list}
        query={query}
        onQueryChange={update}
        pagesLabel={t('reports:transferCosts.title')}
        empty={t('reports:transferCosts.empty')}
      >
        {(data) => (
          <DataTable
            caption={t('reports:transferCosts.title')}
            className="data-table data-table--cards"
            columns={[
              { label: t('reports:transferCosts.number') },
              { label: t('reports:transferCosts.created') },
              { label: t('reports:transferCosts.payoutDate') },
              { label: t('reports:transferCosts.rows'), numeric: true },
              { label: t('reports:transferCosts.gross'), numeric: true },
              { label: t('reports:transferCosts.fee'), numeric: true },
              { label: t('reports:transferCosts.total'), numeric: true },
              { label: <span className="visually-hidden">{t('reports:transferCosts.download')}</span> },
            ]}
          >
            <tbody>
              {data.items.map((s) => (
                <tr key={s.settlementID}>
                  <OpenStatementCell
                    label={t('reports:transferCosts.number')}
                    number={s.number}
                    openLabel={t('reports:transferCosts.open', { number: s.number })}
                    onOpen={() => setOpen(s)}
                  />
                  <td data-label={t('reports:transferCosts.created')}>
                    {formatDate(s.createdDate, language)}
                  </td>
                  <td data-label={t('reports:transferCosts.payoutDate')}>
                    {formatDate(s.payoutDate, language)}
                  </td>
                  <td className="data-table__number" data-label={t('reports:transferCosts.rows')}>
                    {new Intl.NumberFormat(language).format(s.rowCount)}
                  </td>
                  <MoneyCells
                    amounts={[s.grossMinor, s.feeMinor]}
                    currency={s.currency}
                    language={language}
                    labels={[t('reports:transferCosts.gross'), t('reports:transferCosts.fee')]}
                  />
                  <td
                    className="data-table__number data-table__total"
                    data-label={t('reports:transferCosts.total')}
                  >
                    {formatMoney(s.totalPayoutMinor, s.currency, language)}
                  </td>
                  <td>
                    {/* A negative settlement (the issuer owes us) is no deposit: it has no BGMAX file. */}
                    {s.totalPayoutMinor >= 0 && <DownloadButton settlement={s} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </ListResults>
      {open && <SettlementDialog settlement={open} language={language} onHide={() => setOpen(null)} />}
      <DebtClaimsSection language={language} />
    </div>
  );
}
