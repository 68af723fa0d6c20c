import { useState } from 'react';
import { codeAnnouncement, useCodeOffer } from '../lib/cart/code-offer.ts';
import { Icon } from './icon.tsx';

/**
 * Under the header, once the page runs: the code a `?code=` link (or the cart) remembered and what it
 * takes off, or why the shop refused it. The prices beside the kits then show the code's price.
 */
export function CodeBanner() {
  const state = useCodeOffer();
  const [hidden, setHidden] = useState<string | null>(null);
  if (state.status === 'none') return null;
  const code = state.status === 'active' ? state.offer.code : state.code;
  if (hidden === code) return null;
  const active = state.status === 'active';
  return (
    <div className={`code-banner ${active ? 'code-banner-active' : 'code-banner-refused'}`} role="status">
      <div className="container d-flex align-items-center gap-2">
        <Icon name={active ? 'check' : 'shield'} size={18} />
        <p className="mb-0 flex-fill">
          {active ? (
            <>
              {codeAnnouncement(state.offer)} <span className="code-banner-note">Prices shown include it.</span>
            </>
          ) : (
            <>This link's code was not applied: {state.message}</>
          )}
        </p>
        <button type="button" className="btn-close" aria-label="Dismiss" onClick={() => setHidden(code)} />
      </div>
    </div>
  );
}
