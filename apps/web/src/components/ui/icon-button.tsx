import { ICON_BUTTON_DEFAULT_SIZE } from '@portal/contracts';
import type { ButtonHTMLAttributes } from 'react';
import type { IconComponent } from './icons';

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  icon: IconComponent;
  /** Icon size in px; 14 by default (spec §9). */
  size?: number;
  /** The accessible name: an icon alone says nothing to a screen reader. */
  'aria-label': string;
}

export function IconButton({
  icon: Icon,
  size = ICON_BUTTON_DEFAULT_SIZE,
  className,
  ...rest
}: IconButtonProps) {
  return (
    <button type="button" className={['icon-btn', className].filter(Boolean).join(' ')} {...rest}>
      <Icon size={size} />
    </button>
  );
}
