import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { trackPageView } from './analytics.ts';

let lastTrackedKey: string | null = null;

/**
 * Sets the screen's title and, once the title is known, sends one page_view for this visit of the
 * route (a product page knows its title only after its kit has loaded).
 */
export function usePageTitle(title: string | undefined): void {
  const location = useLocation();
  useEffect(() => {
    if (!title) return;
    document.title = title;
    if (lastTrackedKey !== location.key) {
      lastTrackedKey = location.key;
      trackPageView(location.pathname, title);
    }
  }, [title, location.key, location.pathname]);
}
