import { useEffect, useRef } from 'react';
import { watchContentScrollRegions } from '../lib/scroll-regions.ts';

/**
 * HTML that the server sanitised at import (kit details, guides, docs). Its wide code blocks and
 * tables become focusable, named regions in the browser (lib/scroll-regions.ts): the sanitiser's
 * allow-list stays as tight as it is, since the HTML itself never carries tabindex or roles.
 */
export function HtmlContent({
  html,
  className,
  as: Tag = 'div',
}: {
  html: string;
  className?: string;
  as?: 'div' | 'span' | 'li';
}) {
  // Whichever of the three tags it renders as.
  const ref = useRef<HTMLDivElement & HTMLSpanElement & HTMLLIElement>(null);
  useEffect(() => {
    if (!ref.current || !/<(?:pre|table)[\s>]/.test(html)) return;
    return watchContentScrollRegions(ref.current);
  }, [html]);
  return <Tag ref={ref} className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
