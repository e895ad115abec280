import { type InvoiceBody, ROT_RUT_TYPES } from '@portal/contracts';
import { useId } from 'react';
import { type Control, Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../components/ui/form-fields';
import { translateCode } from '../../../lib/messages';
import type { InvoiceFormValues } from '../utils/invoice-form';
import { ROT_RUT_KEYS } from '../utils/labels';

/**
 * The ROT/RUT deduction of a Swedish invoice in SEK: none, ROT or RUT; the buyer's personnummer; for
 * ROT the property designation, or for a tenant-owned apartment the housing cooperative's
 * organisation number.
 */
export function RotRutFields({ control }: { control: Control<InvoiceFormValues, unknown, InvoiceBody> }) {
  const { t } = useTranslation();
  const type = useWatch({ control, name: 'rotRut.type' });
  const typeErrorId = useId();
  return (
    <div className="stack">
      <Controller
        control={control}
        name="rotRut.type"
        render={({ field, fieldState }) => (
          <fieldset className="radio-group" aria-describedby={fieldState.error ? typeErrorId : undefined}>
            <legend>{t('invoices:rot_rut.type')}</legend>
            {ROT_RUT_TYPES.map((option) => (
              <label key={option} className="radio">
                <input
                  type="radio"
                  name={field.name}
                  value={option}
                  checked={field.value === option}
                  onChange={() => field.onChange(option)}
                  onBlur={field.onBlur}
                />
                {t(ROT_RUT_KEYS[option])}
              </label>
            ))}
            {fieldState.error?.message && (
              <p id={typeErrorId} className="field__error" role="alert">
                {translateCode(t, fieldState.error.message)}
              </p>
            )}
          </fieldset>
        )}
      />
      {type !== 'none' && (
        <div className="form-grid">
          <FormTextField
            control={control}
            name="rotRut.personalNumber"
            label={t('invoices:rot_rut.personal_number')}
            hint={t('invoices:rot_rut.personal_number_hint')}
            required
            autoComplete="off"
            limit={13}
          />
          {type === 'rot' && (
            <>
              <FormTextField
                control={control}
                name="rotRut.propertyDesignation"
                label={t('invoices:rot_rut.property_designation')}
                hint={t('invoices:rot_rut.property_hint')}
                className="form-grid__full"
                autoComplete="off"
                limit={100}
              />
              <FormTextField
                control={control}
                name="rotRut.housingCoopNumber"
                label={t('invoices:rot_rut.housing_coop_number')}
                autoComplete="off"
                limit={13}
              />
            </>
          )}
        </div>
      )}
    </div>
  );
}
