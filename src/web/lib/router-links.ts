import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { clientConfig } from './initial-data.ts';

/**
 * A ref for an element holding server-rendered HTML (a text page's Markdown): links to the shop's
 * own screens in it move within the app, as a `<Link>` would, instead of loading the page again.
 * New tabs, modified clicks, files (a feed, a download) and other sites are left to the browser.
 */
export function useRouterLinks(): (root: HTMLElement | null) => (() => void) | undefined {
  const navigate = useNavigate();
  return useCallback(
    (root: HTMLElement | null) => {
      if (!root) return undefined;
      const onClick = (event: MouseEvent) => {
        if (event.defaultPrevented || event.button !== 0) return;
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        const link = (event.target as Element | null)?.closest('a');
        if (!link || !root.contains(link) || link.target || link.hasAttribute('download')) return;
        const href = link.getAttribute('href') ?? '';
        const base = clientConfig.basePath;
        if (!href.startsWith(`${base}/`) || href.startsWith('//') || /\.\w+$/.test(href.split(/[?#]/)[0]!)) return;
        event.preventDefault();
        navigate(href.slice(base.length));
      };
      root.addEventListener('click', onClick);
      return () => root.removeEventListener('click', onClick);
    },
    [navigate],
  );
}
