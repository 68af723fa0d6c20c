/**
 * Keyboard access to boxes that scroll (WCAG 2.1.1): a code block, table or table card wider than
 * its column can be scrolled only with a pointer unless it can take focus. While it overflows, such
 * a box is a named, focusable region (Tab reaches it, the arrow keys scroll it); once it fits again
 * it leaves the tab order, so a page gains no empty stops.
 */

const overflows = (element: HTMLElement) =>
  element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1;

/** Marks (or unmarks) one box by whether it scrolls now. */
export function markScrollRegion(element: HTMLElement, label: string): void {
  if (overflows(element)) {
    element.tabIndex = 0;
    element.setAttribute('role', 'region');
    element.setAttribute('aria-label', label);
  } else if (element.hasAttribute('tabindex')) {
    element.removeAttribute('tabindex');
    element.removeAttribute('role');
    element.removeAttribute('aria-label');
  }
}

/** A table's own words for it: its caption, else the text of its first heading cells. */
function tableLabel(table: HTMLTableElement): string {
  const caption = table.caption?.textContent?.trim();
  if (caption) return `Table: ${caption}`;
  const headings = Array.from(table.querySelectorAll('th'))
    .slice(0, 3)
    .map((th) => th.textContent?.trim())
    .filter(Boolean);
  return headings.length ? `Table: ${headings.join(', ')}` : 'Table';
}

/**
 * Watches the scrolling boxes inside HTML from content (code blocks; tables, each wrapped in a
 * `.scroll-table` box that scrolls instead of the table, since a table must keep its own role) and
 * keeps them marked as the page's width changes. Returns the function that stops watching.
 */
export function watchContentScrollRegions(root: HTMLElement): () => void {
  for (const table of Array.from(root.querySelectorAll('table'))) {
    if (table.parentElement?.classList.contains('scroll-table')) continue;
    const box = document.createElement('div');
    box.className = 'scroll-table';
    table.replaceWith(box);
    box.append(table);
  }
  const boxes: [HTMLElement, string][] = [
    ...Array.from(root.querySelectorAll('pre')).map((pre): [HTMLElement, string] => [pre, 'Code block']),
    ...Array.from(root.querySelectorAll<HTMLElement>('.scroll-table')).map((box): [HTMLElement, string] => [
      box,
      tableLabel(box.querySelector('table')!),
    ]),
  ];
  return watchScrollRegions(boxes);
}

/** Keeps these boxes marked while their sizes change. Returns the function that stops watching. */
export function watchScrollRegions(boxes: [HTMLElement, string][]): () => void {
  const mark = () => {
    for (const [element, label] of boxes) markScrollRegion(element, label);
  };
  mark();
  if (typeof ResizeObserver === 'undefined' || boxes.length === 0) return () => {};
  const observer = new ResizeObserver(mark);
  for (const [element] of boxes) observer.observe(element);
  return () => observer.disconnect();
}
