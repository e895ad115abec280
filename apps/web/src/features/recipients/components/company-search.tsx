import type { Company } from '@portal/contracts';
import { type KeyboardEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { SearchIcon } from '../../../components/ui/icons';
import { TextInput } from '../../../components/ui/text-input';
import { ApiError } from '../../../lib/api-client';
import { errorText, translateCode } from '../../../lib/messages';
import { useSearchCompanies } from '../api/search-companies';

/** The contract's shortest search (searchCompaniesQuerySchema). */
const MIN_QUERY_LENGTH = 2;

/**
 * Looks a company up in the register by name or organisation number and hands the chosen one to the
 * form (spec §8: "too many results, restrict your search" and "no data found").
 */
export function CompanySearch({
  onPick,
  autoFocus = false,
}: {
  onPick: (company: Company) => void;
  /** Puts the focus here when the dialog opens (a new recipient usually starts with a search). */
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const search = useSearchCompanies();
  const [text, setText] = useState('');
  const [tooShort, setTooShort] = useState(false);
  const [picked, setPicked] = useState<string | null>(null);

  function run() {
    const query = text.trim();
    setPicked(null);
    if ([...query].length < MIN_QUERY_LENGTH) {
      setTooShort(true);
      search.reset();
      return;
    }
    setTooShort(false);
    search.mutate(query);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    // Enter searches here; it must not reach the dialog, where it would save the form.
    event.preventDefault();
    event.stopPropagation();
    run();
  }

  const companies = search.data?.items ?? [];
  const failure = search.error;
  return (
    <section className="company-search" aria-labelledby={headingId}>
      <h3 id={headingId} className="company-search__title">
        {t('recipients:company_search.title')}
      </h3>
      <div className="company-search__bar">
        <TextInput
          label={t('recipients:company_search.label')}
          name="companyQuery"
          type="search"
          value={text}
          onChange={(value) => {
            setText(value);
            if (tooShort) setTooShort(false);
          }}
          onKeyDown={onKeyDown}
          autoComplete="off"
          className="company-search__input"
          data-autofocus={autoFocus || undefined}
        />
        <Button
          variant="secondary"
          leadingIcon={SearchIcon}
          label={t('common:actions.search')}
          loading={search.isPending}
          onClick={run}
        />
      </div>
      <div aria-live="polite">
        {tooShort && (
          <p className="notice notice--warning">
            {translateCode(t, 'validation.min_length', { min: MIN_QUERY_LENGTH })}
          </p>
        )}
        {failure && (
          <p className={`notice ${isTooMany(failure) ? 'notice--warning' : 'notice--error'}`}>
            {errorText(t, failure)}
          </p>
        )}
        {search.isSuccess && companies.length === 0 && (
          <p className="notice notice--warning">{t('recipients:company_search.no_results')}</p>
        )}
        {picked && (
          <p className="notice notice--success">{t('recipients:company_search.filled', { name: picked })}</p>
        )}
      </div>
      {search.isSuccess && companies.length > 0 && picked === null && (
        <ul className="pick-list" aria-label={t('recipients:company_search.results')}>
          {companies.map((company) => (
            <li key={company.organizationNumber} className="pick-list__item">
              <span className="pick-list__text">
                <strong>{company.name}</strong>
                <span className="muted">
                  {[company.organizationNumber, company.city].filter(Boolean).join(' · ')}
                </span>
              </span>
              <Button
                variant="secondary"
                label={t('recipients:company_search.use')}
                aria-label={t('recipients:company_search.use_row', { name: company.name })}
                onClick={() => {
                  onPick(company);
                  setPicked(company.name);
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function isTooMany(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'company.too_many_results';
}
