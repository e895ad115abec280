import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { trackButtonClick } from '../../lib/analytics';
import type { IconComponent } from './icons';

export type ButtonVariant = 'primary' | 'secondary' | 'transparent' | 'success' | 'danger' | 'warning';

export interface ButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  variant?: ButtonVariant;
  label?: ReactNode;
  leadingIcon?: IconComponent;
  trailingIcon?: IconComponent;
  fullWidth?: boolean;
  /** Shows a spinner, dims the label and blocks clicks (spec §4). */
  loading?: boolean;
  /** When set, a click sends the `button_clicked` analytics event with this name (spec §3). */
  trackingName?: string;
  children?: ReactNode;
}

export function Button({
  variant = 'primary',
  label,
  leadingIcon: Leading,
  trailingIcon: Trailing,
  fullWidth = false,
  loading = false,
  trackingName,
  type = 'button',
  className,
  disabled,
  onClick,
  children,
  ...rest
}: ButtonProps) {
  const classes = ['btn', `btn--${variant}`, fullWidth && 'btn--full', loading && 'btn--loading', className]
    .filter(Boolean)
    .join(' ');
  return (
    <button
      type={type}
      className={classes}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      onClick={(event) => {
        if (trackingName) trackButtonClick(trackingName);
        onClick?.(event);
      }}
      {...rest}
    >
      {loading && <span className="btn__spinner" aria-hidden="true" />}
      <span className="btn__label">
        {Leading && <Leading size={16} />}
        {label ?? children}
        {Trailing && <Trailing size={16} />}
      </span>
    </button>
  );
}
