import { PLAN_LIMITS } from '@portal/contracts';
import { type FieldArrayWithId, type FieldErrors, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../components/ui/form-fields';
import { IconButton } from '../../../components/ui/icon-button';
import { CloseIcon } from '../../../components/ui/icons';
import { translateCode } from '../../../lib/messages';
import type { PlanFormControl, PlanFormValues } from '../utils/plan-form';

export interface PartyEditorProps {
  control: PlanFormControl;
  name: 'signees' | 'securities';
  fields: FieldArrayWithId<PlanFormValues, 'signees' | 'securities'>[];
  onRemove: (index: number) => void;
  errors: FieldErrors<PlanFormValues>;
}

/** One row of a party: its name, identity number, e-mail and phone, and a button that removes it. */
function PartyRow({
  control,
  name,
  index,
  onRemove,
}: Pick<PartyEditorProps, 'control' | 'name' | 'onRemove'> & { index: number }) {
  const { t } = useTranslation();
  const partyName = useWatch({ control, name: `${name}.${index}.name` });
  const label = partyName || t('installments:form.party.row', { number: index + 1 });
  return (
    <fieldset className="invoice-form__grid party-row">
      <legend className="visually-hidden">{label}</legend>
      <FormTextField
        control={control}
        name={`${name}.${index}.name`}
        label={t('installments:form.party.name')}
        required
        autoComplete="off"
        limit={PLAN_LIMITS.partyName}
      />
      <FormTextField
        control={control}
        name={`${name}.${index}.identityNumber`}
        label={t('installments:form.party.identity_number')}
        required
        autoComplete="off"
        limit={PLAN_LIMITS.identityNumber}
      />
      <FormTextField
        control={control}
        name={`${name}.${index}.email`}
        label={t('installments:form.party.email')}
        type="email"
        required
        autoComplete="off"
        limit={PLAN_LIMITS.email}
      />
      <FormTextField
        control={control}
        name={`${name}.${index}.phone`}
        label={t('installments:form.party.phone')}
        type="tel"
        autoComplete="off"
        limit={PLAN_LIMITS.phone}
      />
      <IconButton
        icon={CloseIcon}
        className="party-row__remove"
        aria-label={t('installments:form.party.remove', { name: label })}
        onClick={() => onRemove(index)}
      />
    </fieldset>
  );
}

/** The signees' or the securities' rows of the plan form, with the list's own error (none, too many). */
export function PartyEditor({ control, name, fields, onRemove, errors }: PartyEditorProps) {
  const { t } = useTranslation();
  const listError = errors[name]?.root?.message ?? errors[name]?.message;
  return (
    <div className="party-editor">
      {fields.map((field, index) => (
        <PartyRow key={field.id} control={control} name={name} index={index} onRemove={onRemove} />
      ))}
      {listError && (
        <p className="field__error" role="alert">
          {translateCode(t, listError)}
        </p>
      )}
    </div>
  );
}
