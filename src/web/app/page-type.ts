import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { matchScreen } from '../../common/paths.ts';
import { screenOf } from '../../common/screens.ts';

/** `document.body.dataset.pageType`: the screen's `pageType` (screens.ts), absent where it has none. */
export function pageTypeFor(routePath: string): string | undefined {
  const match = matchScreen(routePath);
  return match ? screenOf(match.pattern).pageType : undefined;
}

/**
 * Whether the screen the document was loaded with has been placed. That one is the browser's to
 * place: at the top, where a reload or Back left it, or where the visitor scrolled the server-rendered
 * page before its script had run. Scrolling it to the top when the app hydrates would pull a reader
 * on a slow phone back up. Module-wide, as the two layouts (the shop's, the sign-in screens') share it.
 */
let loadedScreenPlaced = false;

/**
 * What every layout does on a route change: set the page-type flag and scroll to the top
 * (instantly: Bootstrap's smooth scrolling would leave a new screen half-way down). A link to an
 * anchor (/#kits) is scrolled by the screen once its content is there. The screen the document was
 * loaded with stays where the browser put it (see `loadedScreenPlaced`).
 */
export function useRouteChangeEffects(): void {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    const type = pageTypeFor(pathname);
    if (type) document.body.dataset.pageType = type;
    else delete document.body.dataset.pageType;
  }, [pathname]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation
  useEffect(() => {
    if (!loadedScreenPlaced) {
      loadedScreenPlaced = true;
      return;
    }
    if (!hash) window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname, hash]);
}
