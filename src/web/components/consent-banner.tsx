import './consent-banner.scss';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { chooseAnalytics } from '../lib/analytics.ts';
import { useConsentBanner } from '../lib/consent.ts';
import { clientConfig } from '../lib/initial-data.ts';

/**
 * The analytics consent bar (only when GA_MEASUREMENT_ID is set): at the first visit and whenever
 * the footer's `Cookie Settings` reopens it. A bar along the bottom, not a wall: the page stays
 * usable: the body gets the bar's height as bottom padding and the page as scroll padding, so
 * nothing ends up under it, not even what the browser scrolls to. It sits
 * first in the page's order, so the keyboard reaches it at once; opened from the footer it takes
 * the focus. Both answers are buttons of the same size and look.
 */
export function ConsentBanner() {
  const state = useConsentBanner();
  const bar = useRef<HTMLElement>(null);

  useEffect(() => {
    const element = bar.current;
    if (state === 'closed' || !element) return;
    if (state === 'settings') element.querySelector('button')?.focus();
    // The padding lets the page scroll past the bar; the scroll padding makes the browser's own
    // scrolling (to a focused field, to an anchor, scrollIntoView) stop above the bar, not under it.
    const root = document.documentElement;
    const pad = () => {
      const height = `${element.offsetHeight}px`;
      document.body.style.paddingBottom = height;
      root.style.scrollPaddingBottom = height;
    };
    pad();
    const observer = new ResizeObserver(pad);
    observer.observe(element);
    return () => {
      observer.disconnect();
      document.body.style.paddingBottom = '';
      root.style.scrollPaddingBottom = '';
    };
  }, [state]);

  if (!clientConfig.gaMeasurementId || state === 'closed') return null;
  return (
    <section ref={bar} className="consent-banner" aria-labelledby="consent-banner-title">
      <div className="container consent-banner-inner">
        <div className="consent-banner-text">
          <h2 id="consent-banner-title" className="consent-banner-title">
            Analytics cookies
          </h2>
          <p className="mb-0">
            May we use Google Analytics cookies to learn which pages are visited? Nothing is sent to Google unless you
            accept, and you can change your mind at any time under Cookie Settings.{' '}
            <Link to="/cookie-policy">Cookie Policy</Link>
          </p>
        </div>
        <div className="consent-banner-actions">
          <button type="button" className="btn btn-light" onClick={() => chooseAnalytics('granted')}>
            Accept Analytics
          </button>
          <button type="button" className="btn btn-light" onClick={() => chooseAnalytics('denied')}>
            Reject Analytics
          </button>
        </div>
      </div>
    </section>
  );
}
