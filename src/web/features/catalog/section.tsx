import type { ReactNode } from 'react';

/**
 * A page section: its heading (the section's label, `titleId`) at the top of a container.
 * `alt` gives the tinted background; `narrow` the reading width; `anchor` an id to link to.
 */
export function Section({
  titleId,
  title,
  alt,
  narrow,
  className,
  anchor,
  children,
}: {
  titleId: string;
  title: ReactNode;
  alt?: boolean;
  narrow?: boolean;
  className?: string;
  anchor?: string;
  children: ReactNode;
}) {
  return (
    <section
      className={['section', alt && 'section-alt', className].filter(Boolean).join(' ')}
      id={anchor}
      aria-labelledby={titleId}
    >
      <div className={narrow ? 'container narrow' : 'container'}>
        <h2 id={titleId} className="section-title">
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}
