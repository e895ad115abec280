import { zodResolver } from '@hookform/resolvers/zod';
import {
  ISSUER_LIMITS,
  type Issuer,
  type SaveIssuerInfoBody,
  saveIssuerInfoBodySchema,
} from '@portal/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FormTextField, TrackedForm } from '../../../components/ui/form-fields';
import { MessageDialog } from '../../../components/ui/message-dialog';
import { TextInput } from '../../../components/ui/text-input';
import { ApiError } from '../../../lib/api-client';
import { errorText, translateCode } from '../../../lib/messages';
import { useSaveIssuerInfo } from '../api/save-issuer-info';

/** The form fields in display order with their spec §5 limits and autocomplete hints. */
const FIELDS = [
  { name: 'name', limit: ISSUER_LIMITS.name, autoComplete: 'organization' },
  { name: 'email', limit: ISSUER_LIMITS.email, autoComplete: 'email', type: 'email' },
  { name: 'VAT', limit: ISSUER_LIMITS.vat, autoComplete: 'off' },
  { name: 'telephone', limit: ISSUER_LIMITS.telephone, autoComplete: 'tel', type: 'tel' },
  { name: 'address', limit: ISSUER_LIMITS.address, autoComplete: 'street-address' },
  { name: 'zipcode', limit: ISSUER_LIMITS.zipcode, autoComplete: 'postal-code' },
  { name: 'city', limit: ISSUER_LIMITS.city, autoComplete: 'address-level2' },
] as const satisfies readonly {
  name: keyof SaveIssuerInfoBody;
  limit: number;
  autoComplete: string;
  type?: string;
}[];

export function issuerToForm(issuer: Issuer): SaveIssuerInfoBody {
  return {
    name: issuer.name,
    email: issuer.email,
    VAT: issuer.vat,
    telephone: issuer.telephone,
    address: issuer.address.address1,
    city: issuer.address.city,
    zipcode: issuer.address.zipcode,
  };
}

/** The details tab of the account modal: the issuer form with the limits of spec §5. */
export function IssuerDetailsForm({ issuer, onSaved }: { issuer: Issuer; onSaved: () => void }) {
  const { t } = useTranslation();
  const save = useSaveIssuerInfo();
  const [failure, setFailure] = useState<unknown>(null);
  const { control, handleSubmit } = useForm<SaveIssuerInfoBody>({
    resolver: zodResolver(saveIssuerInfoBodySchema),
    defaultValues: issuerToForm(issuer),
  });

  const issues = failure instanceof ApiError ? failure.issues : [];
  return (
    <TrackedForm
      className="form-grid"
      label={t('account:details.title')}
      event="issuer_info"
      handleSubmit={handleSubmit}
      onValid={(values) => save.mutate(values, { onSuccess: onSaved, onError: setFailure })}
    >
      <TextInput
        label={t('account:details.fields.organizationNo')}
        name="organizationNo"
        value={issuer.organizationNo}
        readOnly
        className="form-grid__full"
      />
      {FIELDS.map((f) => (
        <FormTextField
          key={f.name}
          control={control}
          name={f.name}
          label={t(`account:details.fields.${f.name}`)}
          type={'type' in f ? f.type : 'text'}
          autoComplete={f.autoComplete}
          limit={f.limit}
        />
      ))}
      <div className="form-grid__actions">
        <Button type="submit" loading={save.isPending} label={t('common:actions.save')} />
      </div>
      {failure !== null && (
        <MessageDialog
          title={t('account:details.error_title')}
          onHide={() => setFailure(null)}
          message={
            <>
              <p>{errorText(t, failure)}</p>
              {issues.length > 0 && (
                <ul>
                  {issues.map((issue) => (
                    <li key={`${issue.path}-${issue.code}`}>
                      {t(`account:details.fields.${issue.path}`, { defaultValue: issue.path })}:{' '}
                      {translateCode(t, issue.code, {
                        max: ISSUER_LIMITS[issue.path.toLowerCase() as keyof typeof ISSUER_LIMITS],
                      })}
                    </li>
                  ))}
                </ul>
              )}
            </>
          }
        />
      )}
    </TrackedForm>
  );
}
