import { zodResolver } from '@hookform/resolvers/zod';
import {
  type Company,
  documentLanguageForCountry,
  LANGUAGES,
  type Language,
  RECIPIENT_COUNTRIES,
  RECIPIENT_ISSUES,
  RECIPIENT_LIMITS,
  type Recipient,
  type RecipientBody,
  recipientBodySchema,
} from '@portal/contracts';
import { useMemo, useState } from 'react';
import { type FieldPath, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { FormSelectField, FormTextField, markServerErrors } from '../../../components/ui/form-fields';
import { saveRecord } from '../../../components/ui/list-results';
import { RecordFormModal } from '../../../components/ui/record-form-modal';
import { paths } from '../../../config/paths';
import { trackedSubmit } from '../../../lib/analytics';
import { ApiError } from '../../../lib/api-client';
import { useCreateRecipient } from '../api/create-recipient';
import { useUpdateRecipient } from '../api/update-recipient';
import { CompanySearch } from './company-search';

type Country = (typeof RECIPIENT_COUNTRIES)[number];
export type RecipientFormValues = RecipientBody;
type RecipientOutput = z.output<typeof recipientBodySchema>;
type TextField = Exclude<keyof RecipientFormValues, 'country' | 'documentLanguage'>;

/** The text fields in display order, with their label keys, limits and autocomplete hints. */
const FIELDS: readonly {
  name: TextField;
  labelKey: string;
  required?: boolean;
  full?: boolean;
  type?: string;
  autoComplete: string;
}[] = [
  {
    name: 'name',
    labelKey: 'recipients:fields.name',
    required: true,
    full: true,
    autoComplete: 'organization',
  },
  { name: 'organizationNumber', labelKey: 'recipients:fields.organizationNumber', autoComplete: 'off' },
  { name: 'vat', labelKey: 'recipients:fields.vat', autoComplete: 'off' },
  {
    name: 'email',
    labelKey: 'recipients:fields.email',
    required: true,
    type: 'email',
    autoComplete: 'email',
  },
  { name: 'phone', labelKey: 'recipients:fields.phone', type: 'tel', autoComplete: 'tel' },
  { name: 'address', labelKey: 'recipients:fields.address', full: true, autoComplete: 'address-line1' },
  { name: 'address2', labelKey: 'recipients:fields.address2', full: true, autoComplete: 'address-line2' },
  { name: 'zipcode', labelKey: 'recipients:fields.zipcode', required: true, autoComplete: 'postal-code' },
  { name: 'city', labelKey: 'recipients:fields.city', required: true, autoComplete: 'address-level2' },
];

const EMPTY: Required<RecipientFormValues> = {
  name: '',
  address: '',
  address2: '',
  zipcode: '',
  city: '',
  country: 'SE',
  email: '',
  phone: '',
  organizationNumber: '',
  vat: '',
  documentLanguage: documentLanguageForCountry('SE'),
};

/** The names of the document languages in the reader's language. */
export const DOCUMENT_LANGUAGE_LABELS: Record<Language, string> = {
  'sv-SE': 'recipients:document_languages.sv-SE',
  'en-US': 'recipients:document_languages.en-US',
  'fi-FI': 'recipients:document_languages.fi-FI',
};

/**
 * The recipient rules' own issue codes (contracts RECIPIENT_ISSUES) have their texts in this screen's
 * namespace, which comes with its chunk; the shared `validation.*` codes are translated as everywhere.
 */
const ISSUE_TEXTS: Record<string, string> = {
  [RECIPIENT_ISSUES.phoneInvalid]: 'recipients:issues.phone_invalid',
  [RECIPIENT_ISSUES.orgNumberTaken]: 'recipients:issues.org_number_taken',
};

function issueText(code: string | undefined): string | undefined {
  return code === undefined ? undefined : (ISSUE_TEXTS[code] ?? code);
}

/** The recipient that already has the party number of a refused save, from the answer's details. */
interface TakenBy {
  name: string;
  organizationNumber: string;
}

function takenBy(error: ApiError): TakenBy | null {
  if (!error.issues.some((issue) => issue.code === RECIPIENT_ISSUES.orgNumberTaken)) return null;
  const { recipientName, recipientOrganizationNumber } = error.details;
  if (typeof recipientName !== 'string' || typeof recipientOrganizationNumber !== 'string') return null;
  return { name: recipientName, organizationNumber: recipientOrganizationNumber };
}

function isCountry(value: string): value is Country {
  return (RECIPIENT_COUNTRIES as readonly string[]).includes(value);
}

function isField(path: string): path is FieldPath<RecipientFormValues> {
  return path in EMPTY;
}

export function recipientToForm(recipient: Recipient): Required<RecipientFormValues> {
  return {
    name: recipient.name,
    address: recipient.address,
    address2: recipient.address2,
    zipcode: recipient.zipcode,
    city: recipient.city,
    country: isCountry(recipient.country) ? recipient.country : 'SE',
    email: recipient.email,
    phone: recipient.phone,
    organizationNumber: recipient.organizationNumber,
    vat: recipient.vat,
    documentLanguage: recipient.documentLanguage,
  };
}

export interface RecipientFormModalProps {
  /** The recipient to edit; null for a new one. */
  recipient: Recipient | null;
  onClose: () => void;
  onSaved: (recipient: Recipient, created: boolean) => void;
}

/**
 * Creates or edits a recipient with the rules of spec §5, checked in the browser by the contract's own
 * schema. A failed save keeps the dialog and everything typed; the server's field issues land on their
 * fields and the translated error is shown above the form.
 */
export function RecipientFormModal({ recipient, onClose, onSaved }: RecipientFormModalProps) {
  const { t, i18n } = useTranslation();
  const create = useCreateRecipient();
  const update = useUpdateRecipient();
  const [failure, setFailure] = useState<unknown>(null);
  const taken = failure instanceof ApiError ? takenBy(failure) : null;
  const isNew = recipient === null;
  const { control, handleSubmit, setError, setValue, formState } = useForm<
    RecipientFormValues,
    unknown,
    RecipientOutput
  >({
    resolver: zodResolver(recipientBodySchema),
    defaultValues: recipient ? recipientToForm(recipient) : EMPTY,
  });

  // A new recipient's document language follows its country until the user picks one (issue #11); a
  // stored recipient's stays as it was saved.
  const [isLanguagePicked, setLanguagePicked] = useState(!isNew);
  const documentLanguages = LANGUAGES.map((language) => ({
    value: language,
    label: t(DOCUMENT_LANGUAGE_LABELS[language]),
  }));
  function followCountry(country: Country) {
    if (!isLanguagePicked)
      setValue('documentLanguage', documentLanguageForCountry(country), { shouldDirty: true });
  }

  const countries = useMemo(() => {
    const names = new Intl.DisplayNames([i18n.language], { type: 'region' });
    return RECIPIENT_COUNTRIES.map((code) => ({ value: code, label: names.of(code) ?? code }));
  }, [i18n.language]);

  function fill(company: Company) {
    const options = { shouldDirty: true, shouldValidate: formState.isSubmitted };
    setValue('name', company.name, options);
    setValue('organizationNumber', company.organizationNumber, options);
    setValue('vat', company.vat, options);
    setValue('address', company.address, options);
    setValue('zipcode', company.zipcode, options);
    setValue('city', company.city, options);
    if (isCountry(company.country)) {
      setValue('country', company.country, options);
      followCountry(company.country);
    }
  }

  function onFailure(error: unknown) {
    markServerErrors(error, setError, { fieldOf: (path) => (isField(path) ? path : null) });
    setFailure(error);
  }

  const submit = handleSubmit(
    trackedSubmit(isNew ? 'create_recipient' : 'update_recipient', (values: RecipientOutput) => {
      setFailure(null);
      saveRecord({ id: recipient?.recipientID, body: values, create, update, onSaved, onError: onFailure });
    }),
  );

  return (
    <RecordFormModal
      title={isNew ? t('recipients:form.new_title') : t('recipients:form.edit_title')}
      failureTitle={isNew ? t('recipients:form.create_failed') : t('recipients:form.save_failed')}
      failure={failure}
      failureDetail={
        taken && (
          <>
            {' '}
            {t('recipients:form.taken', { name: taken.name })}{' '}
            <Link
              to={`${paths.recipient.getHref()}?${new URLSearchParams({ search: taken.organizationNumber })}`}
              onClick={onClose}
            >
              {t('recipients:form.show_taken', { name: taken.name })}
            </Link>
          </>
        )
      }
      loading={create.isPending || update.isPending}
      onClose={onClose}
      onSubmit={() => void submit()}
      before={<CompanySearch onPick={fill} autoFocus={isNew} />}
    >
      {FIELDS.map((f) => (
        <FormTextField
          key={f.name}
          control={control}
          name={f.name}
          label={t(f.labelKey)}
          type={f.type ?? 'text'}
          autoComplete={f.autoComplete}
          limit={RECIPIENT_LIMITS[f.name]}
          required={f.required}
          errorOf={issueText}
          className={f.full ? 'form-grid__full' : undefined}
          data-autofocus={!isNew && f.name === 'name' ? true : undefined}
        />
      ))}
      <FormSelectField
        control={control}
        name="country"
        label={t('recipients:fields.country')}
        emptyValue="SE"
        onValueChange={(value) => {
          if (isCountry(value)) followCountry(value);
        }}
        options={countries}
      />
      <FormSelectField
        control={control}
        name="documentLanguage"
        label={t('recipients:fields.documentLanguage')}
        emptyValue={documentLanguageForCountry('SE')}
        onValueChange={() => setLanguagePicked(true)}
        options={documentLanguages}
      />
    </RecordFormModal>
  );
}
