import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';

/**
 * A table row that opens `to` on a click anywhere in it but on a link or what `skip` names (e.g. a
 * checkbox cell). The row keeps a link of its own for the keyboard: the click is a convenience.
 */
export function LinkedRow({
  to,
  className,
  skip = 'a',
  children,
}: {
  to: string;
  /** Classes besides `is-clickable`. */
  className?: string | false;
  /** A selector of what a click on does not open the row (default: links). */
  skip?: string;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  return (
    <tr
      className={['is-clickable', className].filter(Boolean).join(' ')}
      onClick={(event) => {
        if ((event.target as HTMLElement).closest(skip)) return;
        void navigate(to);
      }}
    >
      {children}
    </tr>
  );
}
