import { useEffect, useState } from 'react';

/**
 * The id of the section being read, among `ids` (headings or sections in the page), for a table of
 * contents or side menu to mark. Watches the band between the sticky header and the middle of the
 * screen. `ready` lets a page start watching once its content has arrived.
 */
export function useCurrentSection(ids: string[], ready = true): string | undefined {
  const [current, setCurrent] = useState<string | undefined>(undefined);
  const key = ids.join(' ');
  useEffect(() => {
    if (!ready || typeof IntersectionObserver === 'undefined') return;
    const targets = key
      .split(' ')
      .map((id) => document.getElementById(id))
      .filter((el): el is HTMLElement => el !== null);
    const visible = new Set<string>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting) visible.add(entry.target.id);
          else visible.delete(entry.target.id);
        }
        const first = targets.find((t) => visible.has(t.id));
        if (first) setCurrent(first.id);
      },
      { rootMargin: '-80px 0px -50% 0px' },
    );
    for (const target of targets) observer.observe(target);
    return () => observer.disconnect();
  }, [key, ready]);
  return current;
}
