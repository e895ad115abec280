import type { ReactNode } from 'react';

export interface CardProps {
  header?: ReactNode;
  children: ReactNode;
  shadow?: boolean;
  border?: boolean;
  className?: string;
  /** Heading level of a text header, so that cards fit the page outline. */
  headingLevel?: 2 | 3;
}

export function Card({
  header,
  children,
  shadow = true,
  border = true,
  className,
  headingLevel = 2,
}: CardProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const classes = ['card', shadow && 'card--shadow', border && 'card--border', className]
    .filter(Boolean)
    .join(' ');
  return (
    <section className={classes}>
      {header !== undefined && (
        <header className="card__header">
          {typeof header === 'string' ? <Heading className="card__title">{header}</Heading> : header}
        </header>
      )}
      <div className="card__body">{children}</div>
    </section>
  );
}
