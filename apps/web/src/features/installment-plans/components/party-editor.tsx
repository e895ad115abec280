import { PLAN_LIMITS } from '@portal/contracts';
import type { ReactNode } from 'react';
import { type FieldErrors, useFieldArray, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FormTextField } from '../../../components/ui/form-fields';
import { IconButton } from '../../../components/ui/icon-button';
import { CloseIcon, PlusIcon } from '../../../components/ui/icons';
import { translateCode } from '../../../lib/messages';
import { blankParty, type PlanFormControl, type PlanFormValues } from '../utils/plan-form';

type PartyList = 'signees' | 'securities';

/** The texts of each list's card. */
const LIST_TEXTS = {
  signees: {
    title: 'installments:form.sections.signees',
    lead: 'installments:form.signees_lead',
    add: 'installments:form.add_signee',
  },
  securities: {
    title: 'installments:form.sections.securities',
    lead: 'installments:form.securities_lead',
    add: 'installments:form.add_security',
  },
} as const satisfies Record<PartyList, Record<string, string>>;

/** A party's fields in their order: label, input type, whether required, the contract's limit. */
const PARTY_FIELDS = [
  {
    key: 'name',
    label: 'installments:form.party.name',
    type: 'text',
    required: true,
    limit: PLAN_LIMITS.partyName,
  },
  {
    key: 'identityNumber',
    label: 'installments:form.party.identity_number',
    type: 'text',
    required: true,
    limit: PLAN_LIMITS.identityNumber,
  },
  {
    key: 'email',
    label: 'installments:form.party.email',
    type: 'email',
    required: true,
    limit: PLAN_LIMITS.email,
  },
  {
    key: 'phone',
    label: 'installments:form.party.phone',
    type: 'tel',
    required: false,
    limit: PLAN_LIMITS.phone,
  },
] as const;

/** One row of a party: its name, identity number, e-mail and phone, and a button that removes it. */
function PartyRow({
  control,
  name,
  index,
  onRemove,
}: {
  control: PlanFormControl;
  name: PartyList;
  index: number;
  onRemove: (index: number) => void;
}) {
  const { t } = useTranslation();
  const partyName = useWatch({ control, name: `${name}.${index}.name` });
  const label = partyName || t('installments:form.party.row', { number: index + 1 });
  return (
    <fieldset className="invoice-form__grid party-row">
      <legend className="visually-hidden">{label}</legend>
      {PARTY_FIELDS.map((field) => (
        <FormTextField
          key={field.key}
          control={control}
          name={`${name}.${index}.${field.key}`}
          label={t(field.label)}
          type={field.type}
          required={field.required}
          autoComplete="off"
          limit={field.limit}
        />
      ))}
      <IconButton
        icon={CloseIcon}
        className="party-row__remove"
        aria-label={t('installments:form.party.remove', { name: label })}
        onClick={() => onRemove(index)}
      />
    </fieldset>
  );
}

export interface PartyEditorProps {
  control: PlanFormControl;
  name: PartyList;
  errors: FieldErrors<PlanFormValues>;
  /** Buttons after "Add …" (the securities' import of the signees). */
  children?: ReactNode;
}

/**
 * The signees' or the securities' card of the plan form: a row per party, adding and removing rows
 * (up to the contract's limit), and the list's own error (none, a repeated identity number).
 */
export function PartyEditor({ control, name, errors, children }: PartyEditorProps) {
  const { t } = useTranslation();
  const rows = useFieldArray({ control, name });
  const texts = LIST_TEXTS[name];
  const listError = errors[name]?.root?.message ?? errors[name]?.message;
  return (
    <Card header={t(texts.title)}>
      <p className="muted">{t(texts.lead)}</p>
      {rows.fields.map((field, index) => (
        <PartyRow key={field.id} control={control} name={name} index={index} onRemove={rows.remove} />
      ))}
      {listError && (
        <p className="field__error" role="alert">
          {translateCode(t, listError)}
        </p>
      )}
      <div className="button-row">
        <Button
          variant="secondary"
          leadingIcon={PlusIcon}
          label={t(texts.add)}
          disabled={rows.fields.length >= PLAN_LIMITS[name]}
          onClick={() => rows.append(blankParty())}
        />
        {children}
      </div>
    </Card>
  );
}
