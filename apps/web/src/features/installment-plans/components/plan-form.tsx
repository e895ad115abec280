import { zodResolver } from '@hookform/resolvers/zod';
import {
  type InstallmentPlanBody,
  type InstallmentPlanDetail,
  installmentPlanWarnings,
  PLAN_LIMITS,
  signeesAsSecurities,
} from '@portal/contracts';
import { formatAmount } from '@portal/domain/money';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { type FieldPath, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FormCountField } from '../../../components/ui/form-count-field';
import { FormDateField } from '../../../components/ui/form-date-field';
import {
  FormFailure,
  FormMoneyField,
  FormSelectField,
  FormTextField,
  markServerErrors,
} from '../../../components/ui/form-fields';
import type { RecipientPickerComponent } from '../../../components/ui/picker-slots';
import { useRecipientField } from '../../../components/ui/recipient-field';
import { trackFormSubmit } from '../../../lib/analytics';
import { formatDate, toIsoDate } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { translateCode } from '../../../lib/messages';
import { installmentPlanQuery, useRegisterInstallmentPlan, useReplaceablePlans } from '../api/plans';
import { planStateKey } from '../utils/labels';
import {
  blankPlanForm,
  liveSchedule,
  type PartyValues,
  type PlanFormControl,
  type PlanFormValues,
  planFormPathOf,
  planFormSchema,
  REPLACEMENT_ERROR_FIELDS,
} from '../utils/plan-form';
import { PartyEditor } from './party-editor';
import { ScheduleTable } from './schedule-table';
import '../texts';

export interface PlanFormProps {
  currencies: readonly string[];
  /** The plan the new one replaces, chosen before the form opened (`?replaces=` of its page's link). */
  replacesPlanID?: string | undefined;
  RecipientPicker: RecipientPickerComponent;
  onSaved: (plan: InstallmentPlanDetail) => void;
  onCancel: () => void;
}

/** The schedule as the form stands, recomputed on every keystroke of the terms. */
function LiveSchedulePreview({ control }: { control: PlanFormControl }) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const values = useWatch({ control }) as PlanFormValues;
  const live = liveSchedule(values, language);
  if (live.kind === 'incomplete') return <p className="muted">{t('installments:schedule.incomplete')}</p>;
  if (live.kind === 'too_large')
    return <p className="field__error">{t('installments:schedule.too_large')}</p>;
  const { schedule } = live;
  return (
    <div data-testid="live-schedule">
      <ScheduleTable
        rows={schedule.rows}
        totals={{
          principalMinor: schedule.principalMinor,
          feesMinor: schedule.feesMinor,
          totalMinor: schedule.totalMinor,
        }}
        currency={schedule.currency}
        language={language}
      />
      <p className="muted">
        {t('installments:schedule.end_date', { date: formatDate(schedule.endDate, language) })}
      </p>
    </div>
  );
}

/** A party that has nothing typed in it. */
const isBlankParty = (p: PartyValues) => Object.values(p).every((v) => v.trim() === '');

/**
 * `/installment/register` (issue #14): the buyer, the terms and the fees with the live schedule, the
 * signees and the securities. The contract's rules through react-hook-form, typed amounts read
 * exactly; the start-date warning of spec §5 (saving is still allowed); the server's issues on their
 * fields. One Idempotency-Key per form, so a double click or a retry registers the plan once.
 */
export function PlanForm({ currencies, replacesPlanID, RecipientPicker, onSaved, onCancel }: PlanFormProps) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const resolver = useMemo(() => zodResolver(planFormSchema(language)), [language]);
  const today = useMemo(() => toIsoDate(new Date()), []);
  const { control, handleSubmit, setError, getValues, setValue, formState } = useForm<
    PlanFormValues,
    unknown,
    InstallmentPlanBody
  >({ resolver, defaultValues: blankPlanForm(currencies[0] ?? 'SEK') });
  const [idempotencyKey] = useState(newIdempotencyKey);
  const register = useRegisterInstallmentPlan();
  const [failure, setFailure] = useState<unknown>(null);
  const [checkFields, setCheckFields] = useState(false);
  const startDate = useWatch({ control, name: 'startDate' });
  const warning = startDate ? installmentPlanWarnings({ startDate }, today)[0] : undefined;
  const replaceable = useReplaceablePlans();
  const queryClient = useQueryClient();
  const replacing = useWatch({ control, name: 'replacesPlanID' });
  // The buyer picker keeps what is typed in it: a buyer taken from the replaced plan starts it anew.
  const [pickerKey, setPickerKey] = useState(0);
  const buyer = useRecipientField({
    control,
    name: 'recipientID',
    toPicked: (id: string) => (id ? { recipientID: id, name: getValues('recipientName') } : null),
    onPick: (picked) => setValue('recipientName', picked?.name ?? ''),
    fromPicked: (picked) => picked?.recipientID ?? '',
  });

  /**
   * A plan to replace is chosen: the new plan takes its buyer, its currency and, as the financed
   * amount, its open principal to the öre (what the server requires).
   */
  async function takeOverTermsOf(id: string) {
    if (!id) return;
    const old = await queryClient.fetchQuery(installmentPlanQuery(id)).catch(() => null);
    if (!old || getValues('replacesPlanID') !== id) return;
    setValue('recipientName', old.recipientName);
    setValue('recipientID', old.recipientID, { shouldValidate: formState.isSubmitted });
    setPickerKey((k) => k + 1);
    setValue('currency', old.currency);
    setValue('financedAmountMinor', formatAmount(old.openPrincipalMinor, language), {
      shouldValidate: formState.isSubmitted,
    });
  }

  // Opened from a plan's page to replace it: its choice is made and its terms taken over once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the plan the form opened with.
  useEffect(() => {
    if (!replacesPlanID) return;
    setValue('replacesPlanID', replacesPlanID);
    void takeOverTermsOf(replacesPlanID);
  }, [replacesPlanID]);

  const submit = handleSubmit(
    (body) => {
      setFailure(null);
      setCheckFields(false);
      trackFormSubmit('installment_register', Object.keys(body));
      register.mutate(
        { body, idempotencyKey },
        {
          onSuccess: onSaved,
          onError: (error) => {
            markServerErrors(error, setError, {
              fieldOf: (path) => planFormPathOf(path) as FieldPath<PlanFormValues> | null,
              codeFields: REPLACEMENT_ERROR_FIELDS,
              focusFirstIssue: true,
            });
            setFailure(error);
          },
        },
      );
    },
    () => setCheckFields(true),
  );

  function importSignees() {
    const typed = (list: PartyValues[]) => list.filter((p) => !isBlankParty(p));
    setValue('securities', signeesAsSecurities(typed(getValues('signees')), typed(getValues('securities'))));
  }

  const currencyOptions = currencies.map((c) => ({ value: c, label: c }));
  const replaceOptions = [
    { value: '', label: t('installments:form.replaces_none') },
    ...(replaceable.data ?? []).map((p) => ({
      value: p.installmentPlanID,
      label: t('installments:form.replaces_option', {
        loanNumber: p.loanNumber,
        buyer: p.recipientName,
        state: t(planStateKey(p.state)),
      }),
    })),
  ];
  // A plan named by the link but not among the list (not replaceable any more) is still shown as
  // chosen, so the server's answer about it has its field.
  if (replacing && !replaceOptions.some((o) => o.value === replacing))
    replaceOptions.push({ value: replacing, label: t('installments:form.replaces_unknown') });
  return (
    <form className="plan-form stack" noValidate onSubmit={submit} aria-label={t('installments:form.label')}>
      <Card header={t('installments:form.sections.terms')}>
        <div className="invoice-form__grid">
          <div className="plan-form__description">
            <FormSelectField
              control={control}
              name="replacesPlanID"
              label={t('installments:form.replaces')}
              options={replaceOptions}
              onValueChange={(id) => void takeOverTermsOf(id)}
            />
            {replacing && (
              <p className="muted" data-testid="replaces-hint">
                {t('installments:form.replaces_hint')}
              </p>
            )}
          </div>
          <div className="invoice-form__recipient">
            <RecipientPicker
              key={pickerKey}
              {...buyer}
              label={t('installments:form.buyer')}
              hint={t('installments:form.buyer_hint')}
              required
            />
          </div>
          <FormSelectField
            control={control}
            name="currency"
            label={t('installments:form.currency')}
            required
            options={currencyOptions}
          />
          <div className="plan-form__description">
            <FormTextField
              control={control}
              name="description"
              label={t('installments:form.description')}
              required
              autoComplete="off"
              limit={PLAN_LIMITS.description}
            />
          </div>
          <FormMoneyField
            control={control}
            name="financedAmountMinor"
            label={t('installments:form.financed_amount')}
            required
          />
          <div>
            <FormDateField
              control={control}
              name="startDate"
              label={t('installments:form.start_date')}
              required
            />
            {warning && (
              <p className="notice notice--warning" role="status" data-testid="start-date-warning">
                {translateCode(t, warning.code)}
              </p>
            )}
          </div>
          <FormCountField
            control={control}
            name="noOfInstallments"
            label={t('installments:form.installments')}
            min={1}
            required
          />
          <FormMoneyField control={control} name="initialFee" label={t('installments:form.initial_fee')} />
          <FormMoneyField control={control} name="monthlyFee" label={t('installments:form.monthly_fee')} />
          <FormMoneyField
            control={control}
            name="administrationFee"
            label={t('installments:form.administration_fee')}
          />
        </div>
      </Card>

      <Card header={t('installments:form.sections.schedule')}>
        <LiveSchedulePreview control={control} />
      </Card>

      <PartyEditor control={control} name="signees" errors={formState.errors} />
      <PartyEditor control={control} name="securities" errors={formState.errors}>
        <Button variant="secondary" label={t('installments:form.import_signees')} onClick={importSignees} />
      </PartyEditor>

      {checkFields && (
        <p className="notice notice--error" role="alert">
          {t('installments:form.check_fields')}
        </p>
      )}
      {failure !== null && <FormFailure title={t('installments:form.save_failed')} error={failure} />}
      <div className="button-row invoice-form__actions">
        <Button variant="secondary" label={t('common:actions.cancel')} onClick={onCancel} />
        <Button type="submit" loading={register.isPending} label={t('installments:form.register')} />
      </div>
    </form>
  );
}
