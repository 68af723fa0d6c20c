import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { type ScreenPattern, screenOf } from '../../common/screens.ts';
import { trackPageView } from './analytics.ts';

let tracked: { key: string; page: string } | null = null;

/**
 * Sets the screen's title and, once the title is known, sends one page_view for this visit of the
 * route (a product page knows its title only after its kit has loaded). Moving to a #section of
 * the same page is not another page view.
 */
export function useTitleAndPageView(title: string | undefined): void {
  const location = useLocation();
  useEffect(() => {
    if (!title) return;
    document.title = title;
    if (tracked?.key === location.key) return;
    const page = location.pathname + location.search;
    if (tracked?.page !== page) trackPageView(location.pathname, title);
    tracked = { key: location.key, page };
  }, [title, location.key, location.pathname, location.search]);
}

/** The same for a screen with a fixed title: its `title` in screens.ts (`'/cart'`), once `ready`. */
export function useScreenTitleAndPageView(pattern: ScreenPattern, ready = true): void {
  useTitleAndPageView(ready ? screenOf(pattern).title : undefined);
}
