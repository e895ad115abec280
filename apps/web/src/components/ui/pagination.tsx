import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';

export const PAGE_SIZES = [10, 25, 50, 100] as const;

export interface PaginationProps {
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  /** Names the navigation landmark, e.g. "Recipient pages". */
  label: string;
}

/** "1–25 of 132", the rows-per-page choice and previous/next under a list. */
export function Pagination({
  page,
  pageSize,
  total,
  onPageChange,
  onPageSizeChange,
  label,
}: PaginationProps) {
  const { t, i18n } = useTranslation();
  const sizeId = useId();
  const number = new Intl.NumberFormat(i18n.language);
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  // A size typed into the URL that the list does not offer is still shown as chosen.
  const sizes = [...new Set([...PAGE_SIZES, pageSize])].sort((a, b) => a - b);
  return (
    <nav className="pagination" aria-label={label}>
      <p className="pagination__summary" aria-live="polite">
        {t('common:list.summary', {
          from: number.format(from),
          to: number.format(to),
          total: number.format(total),
        })}
      </p>
      <div className="pagination__size">
        <label htmlFor={sizeId}>{t('common:list.page_size')}</label>
        <select
          id={sizeId}
          className="field__input field__input--compact"
          value={pageSize}
          onChange={(event) => onPageSizeChange(Number(event.target.value))}
        >
          {sizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <div className="button-row">
        <Button
          variant="secondary"
          label={t('common:list.previous')}
          disabled={page <= 1}
          onClick={() => onPageChange(page - 1)}
        />
        <Button
          variant="secondary"
          label={t('common:list.next')}
          disabled={page >= lastPage}
          onClick={() => onPageChange(page + 1)}
        />
      </div>
    </nav>
  );
}
