import type { ReactNode } from 'react';
import { useHydrated } from '../lib/hydration.ts';

/**
 * A layout's contents. On a page the server rendered, its buttons and fields stay disabled until
 * the browser has hydrated it (a click or a typed letter before then would be lost, and a form
 * would be sent by the browser itself); links work at once, and without JavaScript. `display:
 * contents` and `role="presentation"`: no box and no group of its own, only the disabling.
 */
export function HydrationFrame({ children }: { children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <fieldset className="hydration-frame" role="presentation" disabled={!hydrated}>
      {!hydrated && (
        <noscript>
          <p className="noscript-note">The cart, sign-in and the forms of this shop need JavaScript.</p>
        </noscript>
      )}
      {children}
    </fieldset>
  );
}
