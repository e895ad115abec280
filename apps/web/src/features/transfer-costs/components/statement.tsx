import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNotice } from '../../../components/ui/load-states';
import { Modal, type ModalProps } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';

/**
 * The key cell of a settlement's or a debt claim's row: its number, a button that opens its statement
 * (named by `openLabel`, "Show claim 7").
 */
export function OpenStatementCell({
  label,
  number,
  openLabel,
  onOpen,
}: {
  /** The column's name, shown beside the cell when the table is laid out as cards. */
  label: string;
  number: number;
  openLabel: string;
  onOpen: () => void;
}) {
  return (
    <th scope="row" data-label={label}>
      <button type="button" className="link-button" aria-label={openLabel} onClick={onOpen}>
        {number}
      </button>
    </th>
  );
}

/**
 * A settlement's or a debt claim's statement in a wide dialog (`title`, `subtitle`, `onHide` as the
 * Modal's) with only a close button: `head` first, then the loaded detail (`children`), with a spinner
 * while it loads and its error if it fails.
 */
export function StatementDialog<T>({
  head,
  detail,
  children,
  ...dialog
}: Pick<ModalProps, 'title' | 'subtitle' | 'onHide'> & {
  /** What is known before the detail loads (the claim's facts, the settlement's download). */
  head: ReactNode;
  detail: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal {...dialog} cancelLabel={t('reports:transferCosts.close')} hideSubmit wide>
      <div className="stack">
        {head}
        {detail.isPending && <Spinner />}
        {detail.isError && <ErrorNotice error={detail.error} />}
        {detail.data && children(detail.data)}
      </div>
    </Modal>
  );
}
