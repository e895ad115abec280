import { type InstallmentPlanDetail, PLAN_STATE, type PlanAction, planActionsFrom } from '@portal/contracts';
import { sumMinor } from '@portal/domain/money';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { DataTable } from '../../../components/ui/list-results';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { formatDate, formatDateTime } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { errorText } from '../../../lib/messages';
import { formatMoney } from '../../../lib/money';
import { useCancelPlan, useDownloadAgreement, useInstallmentPlan, useSendPlanForSigning } from '../api/plans';
import { planEventKey, SIGNING_KEYS } from '../utils/labels';
import { PlanStateBadge } from './plan-state-badge';
import { ScheduleTable } from './schedule-table';
import '../texts';

/** What the page says on arrival: the form has just registered the plan. */
export type PlanNotice = 'registered';

/** The states whose agreement every signee has signed: it can be downloaded. */
const SIGNED_STATES: readonly number[] = [
  PLAN_STATE.signed,
  PLAN_STATE.active,
  PLAN_STATE.finalNotice,
  PLAN_STATE.recalled,
  PLAN_STATE.completed,
  PLAN_STATE.replaced,
];

/** The parties of a plan: signees with their signing status, or securities. */
function PartiesTable({
  caption,
  parties,
}: {
  caption: string;
  parties: readonly (InstallmentPlanDetail['securities'][number] &
    Partial<InstallmentPlanDetail['signees'][number]>)[];
}) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const withStatus = parties.some((p) => p.signingStatus !== undefined);
  return (
    <DataTable
      caption={caption}
      columns={[
        { label: t('installments:form.party.name'), className: 'data-table__key' },
        { label: t('installments:form.party.identity_number') },
        { label: t('installments:form.party.email') },
        { label: t('installments:form.party.phone') },
        withStatus && { label: t('installments:detail.fields.state') },
      ]}
    >
      <tbody>
        {parties.map((party) => (
          <tr key={party.identityNumber}>
            <th scope="row">{party.name}</th>
            <td>{party.identityNumber}</td>
            <td>{party.email}</td>
            <td>{party.phone}</td>
            {withStatus && party.signingStatus && (
              <td>
                {/* "Signed <date>" once: the status word is part of the dated text. */}
                {party.signedAt && party.signingStatus === 'signed'
                  ? t('installments:detail.signed_at', { date: formatDateTime(party.signedAt, language) })
                  : t(SIGNING_KEYS[party.signingStatus])}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

/** The customer's actions the plan's state allows, and the signed agreement once there is one. */
function PlanActions({ plan, onDone }: { plan: InstallmentPlanDetail; onDone: (text: string) => void }) {
  const { t } = useTranslation();
  const send = useSendPlanForSigning();
  const cancel = useCancelPlan();
  const agreement = useDownloadAgreement();
  const [asking, setAsking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const allowed = new Set<PlanAction>(planActionsFrom(plan.state));
  const canDownload = SIGNED_STATES.includes(plan.state);
  // One plan replaces another at a time: none while a replacing plan waits for its decision.
  const canReplace = allowed.has('replace') && !plan.replacedByPlanID;
  // While the agreement waits, the page of the signee whose turn it is (in the demo: the sandbox's).
  const signingLink = plan.signees.find((s) => s.signingLink)?.signingLink ?? null;
  const onError = (error: unknown) => setFailure(errorText(t, error));

  if (!allowed.has('sendForSigning') && !allowed.has('cancel') && !canDownload && !canReplace && !signingLink)
    return <p className="muted">{t('installments:detail.no_actions')}</p>;
  return (
    <>
      <div className="button-row">
        {canReplace && (
          <Link
            className="btn btn--secondary"
            to={`${paths.installmentRegister.getHref()}?replaces=${encodeURIComponent(plan.installmentPlanID)}`}
          >
            {t('installments:detail.replace')}
          </Link>
        )}
        {allowed.has('sendForSigning') && (
          <Button
            variant="success"
            loading={send.isPending}
            label={t('installments:detail.send_for_signing')}
            onClick={() => {
              setFailure(null);
              send.mutate(plan.installmentPlanID, {
                onSuccess: () => onDone(t('installments:detail.sent_for_signing')),
                onError,
              });
            }}
          />
        )}
        {signingLink && (
          <a
            className="btn btn--secondary"
            href={signingLink}
            target="_blank"
            rel="noopener noreferrer"
            title={t('installments:detail.open_signing_hint')}
          >
            {t('installments:detail.open_signing')}
          </a>
        )}
        {canDownload && (
          <Button
            variant="secondary"
            loading={agreement.isPending}
            label={t('installments:detail.download_agreement')}
            onClick={() => {
              setFailure(null);
              agreement.mutate(plan, { onError: () => setFailure(t('installments:detail.download_failed')) });
            }}
          />
        )}
        {allowed.has('cancel') && (
          <Button
            variant="danger"
            label={t('installments:detail.cancel')}
            onClick={() => {
              cancel.reset();
              setAsking(true);
            }}
          />
        )}
      </div>
      <div role="alert">{failure && <p className="notice notice--error">{failure}</p>}</div>
      {asking && (
        <ConfirmDialog
          title={t('installments:detail.cancel_title')}
          message={t('installments:detail.cancel_message', { loanNumber: plan.loanNumber })}
          confirmLabel={t('installments:detail.cancel_confirm')}
          action={cancel}
          onHide={() => setAsking(false)}
          onConfirm={() =>
            cancel.mutate(plan.installmentPlanID, {
              onSuccess: () => {
                setAsking(false);
                onDone(t('installments:detail.cancelled'));
              },
            })
          }
        />
      )}
    </>
  );
}

/** A link to another plan of the issuer, named by its loan number once it is read. */
function PlanLink({ id, fallback }: { id: string; fallback: string }) {
  const { t } = useTranslation();
  const other = useInstallmentPlan(id);
  return (
    <Link to={paths.installmentPlanDetail.getHref(id)}>
      {other.data ? t('installments:detail.plan_link', { loanNumber: other.data.loanNumber }) : fallback}
    </Link>
  );
}

/**
 * `/installmentplans/:id`: one plan's summary, its schedule with each installment's invoice, its
 * signees with their signing status, its securities and timeline, and the actions its state allows.
 */
export function PlanDetailPage({ planID, notice }: { planID: string; notice: PlanNotice | null }) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const query = useInstallmentPlan(planID);
  const [status, setStatus] = useState(notice === 'registered' ? t('installments:detail.registered') : '');
  const plan = query.data;

  if (query.isPending)
    return (
      <div className="page--center">
        <Spinner size="large" />
      </div>
    );
  if (!plan)
    return (
      <div className="notice notice--error" role="alert">
        <p>{errorText(t, query.error)}</p>
        {!(query.error instanceof ApiError && query.error.status === 404) && (
          <Button
            variant="secondary"
            label={t('common:actions.retry')}
            onClick={() => void query.refetch()}
          />
        )}
      </div>
    );

  const money = (minor: number) => formatMoney(minor, plan.currency, language);
  const rows = plan.installments;
  return (
    <div className="plan-detail stack">
      <p>
        <Link to={paths.installmentPlans.getHref()}>{t('installments:detail.back')}</Link>
      </p>
      <h1 className="page__title">
        {t('installments:detail.title', { loanNumber: plan.loanNumber })}{' '}
        <PlanStateBadge state={plan.state} />
      </h1>
      <p className="list-page__status" role="status">
        {status}
      </p>

      <div className="invoice-detail__grid">
        <Card header={t('installments:detail.sections.summary')}>
          <dl className="facts">
            <dt>{t('installments:detail.fields.buyer')}</dt>
            <dd>{plan.recipientName}</dd>
            <dt>{t('installments:detail.fields.description')}</dt>
            <dd>{plan.description}</dd>
            <dt>{t('installments:detail.fields.financed')}</dt>
            <dd>{money(plan.financedAmountMinor)}</dd>
            <dt>{t('installments:detail.fields.installments')}</dt>
            <dd>{plan.noOfInstallments}</dd>
            <dt>{t('installments:detail.fields.period')}</dt>
            <dd>
              {formatDate(plan.startDate, language)} – {formatDate(plan.endDate, language)}
            </dd>
            <dt>{t('installments:detail.fields.total')}</dt>
            <dd>{money(plan.total)}</dd>
            <dt>{t('installments:detail.fields.remaining')}</dt>
            <dd>{money(plan.remainingMinor)}</dd>
            {plan.openPrincipalMinor > 0 && (
              <>
                <dt>{t('installments:detail.fields.open_principal')}</dt>
                <dd>{money(plan.openPrincipalMinor)}</dd>
              </>
            )}
            {plan.replacesPlanID && (
              <>
                <dt>{t('installments:detail.fields.replaces')}</dt>
                <dd>
                  <PlanLink id={plan.replacesPlanID} fallback={t('installments:detail.fields.replaces')} />
                </dd>
              </>
            )}
            {plan.replacedByPlanID && (
              <>
                <dt>
                  {t(
                    plan.state === PLAN_STATE.replaced
                      ? 'installments:detail.fields.replaced_by'
                      : 'installments:detail.fields.replacing_pending',
                  )}
                </dt>
                <dd>
                  <PlanLink
                    id={plan.replacedByPlanID}
                    fallback={t('installments:detail.fields.replaced_by')}
                  />
                </dd>
              </>
            )}
          </dl>
        </Card>
        <Card header={t('installments:detail.sections.actions')}>
          <PlanActions plan={plan} onDone={setStatus} />
        </Card>
      </div>

      <Card header={t('installments:detail.sections.schedule')}>
        <ScheduleTable
          rows={rows}
          totals={{
            principalMinor: sumMinor(rows.map((r) => r.principalMinor)),
            feesMinor: sumMinor(rows.map((r) => r.feeMinor)),
            totalMinor: sumMinor(rows.map((r) => r.amountMinor)),
          }}
          currency={plan.currency}
          language={language}
          withInvoices
        />
      </Card>

      <Card header={t('installments:detail.sections.signees')}>
        <PartiesTable caption={t('installments:detail.sections.signees')} parties={plan.signees} />
      </Card>
      <Card header={t('installments:detail.sections.securities')}>
        {plan.securities.length === 0 ? (
          <p className="muted">{t('installments:detail.no_securities')}</p>
        ) : (
          <PartiesTable caption={t('installments:detail.sections.securities')} parties={plan.securities} />
        )}
      </Card>

      <Card header={t('installments:detail.sections.timeline')}>
        <ol className="timeline">
          {plan.events.map((event) => (
            <li key={event.eventID} className="timeline__item">
              <span className="timeline__event">{t(planEventKey(event.event))}</span>
              <time className="timeline__date" dateTime={event.date}>
                {formatDateTime(event.date, language)}
              </time>
              {event.text && <span className="timeline__text">{event.text}</span>}
            </li>
          ))}
        </ol>
      </Card>
    </div>
  );
}
