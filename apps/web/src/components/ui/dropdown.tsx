import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { ChevronDownIcon } from './icons';

export interface DropdownProps {
  /** The trigger's visible content. */
  label: ReactNode;
  /** The trigger's accessible name when `label` is not plain text (an icon with a badge). */
  ariaLabel?: string;
  /** Renders the panel; `close` hides it (after a choice). */
  children: (close: () => void) => ReactNode;
  align?: 'start' | 'end';
  className?: string;
  showChevron?: boolean;
}

/**
 * A disclosure dropdown for the top menu: the button reports aria-expanded, Escape closes and puts
 * focus back on the button, a click outside or focus leaving closes it.
 */
export function Dropdown({
  label,
  ariaLabel,
  children,
  align = 'start',
  className,
  showChevron = true,
}: DropdownProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    return () => document.removeEventListener('mousedown', onPointer);
  }, [open]);

  const close = () => setOpen(false);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape from anywhere inside the dropdown closes it.
    <div
      ref={rootRef}
      className={['dropdown', className].filter(Boolean).join(' ')}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          setOpen(false);
          buttonRef.current?.focus();
        }
      }}
      onBlur={(event) => {
        if (open && !rootRef.current?.contains(event.relatedTarget as Node | null) && event.relatedTarget) {
          setOpen(false);
        }
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="dropdown__trigger"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={ariaLabel}
        onClick={() => setOpen((value) => !value)}
      >
        {label}
        {showChevron && <ChevronDownIcon size={14} />}
      </button>
      <div id={panelId} className={`dropdown__panel dropdown__panel--${align}`} hidden={!open}>
        {open && children(close)}
      </div>
    </div>
  );
}
