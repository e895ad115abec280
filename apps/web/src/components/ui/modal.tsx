import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Button, type ButtonVariant } from './button';
import { IconButton } from './icon-button';
import { CloseIcon } from './icons';
import { Spinner } from './spinner';

export interface ModalProps {
  title: ReactNode;
  subtitle?: ReactNode;
  children?: ReactNode;
  /** Emitted by Escape, the close icon and cancel. */
  onHide: () => void;
  /** Emitted by the submit button and, with submitOnEnter, by Enter. */
  onSubmit?: () => void;
  cancelLabel?: string;
  submitLabel?: string;
  submitVariant?: ButtonVariant;
  hideSubmit?: boolean;
  hideFooter?: boolean;
  disableSubmit?: boolean;
  wide?: boolean;
  submitOnEnter?: boolean;
  /** Covers the dialog with a spinner (spec §4 dialog loading flag). */
  loading?: boolean;
  /** role="alertdialog" for confirmations and error messages. */
  alert?: boolean;
  className?: string;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The modal dialog of spec §2: a static backdrop (a click on it does nothing), Escape always closes,
 * Enter submits only with submitOnEnter and an enabled submit. Focus is trapped inside and returns
 * to the element that opened it.
 */
export function Modal({
  title,
  subtitle,
  children,
  onHide,
  onSubmit,
  cancelLabel,
  submitLabel,
  submitVariant = 'primary',
  hideSubmit = false,
  hideFooter = false,
  disableSubmit = false,
  wide = false,
  submitOnEnter = false,
  loading = false,
  alert = false,
  className,
}: ModalProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const subtitleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = dialogRef.current;
    const first =
      dialog?.querySelector<HTMLElement>('[data-autofocus]') ??
      dialog?.querySelector<HTMLElement>('input:not([disabled]):not([readonly]), textarea, select') ??
      dialog;
    first?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const canSubmit = !hideSubmit && !hideFooter && !disableSubmit && !loading && onSubmit !== undefined;

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    // A nested dialog handles its own keys; the React tree would bubble them to the outer one.
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      onHide();
      return;
    }
    if (event.key === 'Enter') {
      const target = event.target as HTMLElement;
      const isButtonLike =
        target.tagName === 'BUTTON' || target.tagName === 'A' || target.tagName === 'TEXTAREA';
      if (submitOnEnter && canSubmit && !isButtonLike) {
        event.preventDefault();
        onSubmit?.();
      }
      return;
    }
    if (event.key === 'Tab') trapFocus(event);
  }

  function trapFocus(event: KeyboardEvent<HTMLDivElement>) {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const focusables = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusables[0];
    const last = focusables[focusables.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (event.shiftKey && (document.activeElement === first || document.activeElement === dialog)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return createPortal(
    // The backdrop is static by design (spec §2): it has no click handler.
    <div className="modal-backdrop" data-testid="modal-backdrop">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the role (dialog or alertdialog) is chosen at run time. */}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: aria-modal belongs to both dialog roles. */}
      <div
        ref={dialogRef}
        role={alert ? 'alertdialog' : 'dialog'}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={subtitle ? subtitleId : undefined}
        tabIndex={-1}
        className={['modal', wide && 'modal--wide', className].filter(Boolean).join(' ')}
        onKeyDown={onKeyDown}
      >
        <header className="modal__header">
          <div>
            <h2 id={titleId} className="modal__title">
              {title}
            </h2>
            {subtitle && (
              <p id={subtitleId} className="modal__subtitle">
                {subtitle}
              </p>
            )}
          </div>
          <IconButton icon={CloseIcon} size={18} aria-label={t('common:actions.close')} onClick={onHide} />
        </header>
        <div className="modal__body">{children}</div>
        {!hideFooter && (
          <footer className="modal__footer">
            <Button variant="secondary" label={cancelLabel ?? t('common:actions.cancel')} onClick={onHide} />
            {!hideSubmit && (
              <Button
                variant={submitVariant}
                label={submitLabel ?? t('common:actions.save')}
                disabled={!canSubmit}
                onClick={() => onSubmit?.()}
              />
            )}
          </footer>
        )}
        {loading && (
          <div className="modal__loading">
            <Spinner size="small" />
          </div>
        )}
      </div>
    </div>,
    document.body,
  );
}
