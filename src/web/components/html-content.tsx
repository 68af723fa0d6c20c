/** HTML that the server sanitised at import (kit details, guides, docs). */
export function HtmlContent({
  html,
  className,
  as: Tag = 'div',
}: {
  html: string;
  className?: string;
  as?: 'div' | 'span' | 'li';
}) {
  return <Tag className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
