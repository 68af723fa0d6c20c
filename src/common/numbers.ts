/**
 * A count with en-US digit groups, 12345 -> '12,345'. Not `toLocaleString`: the storefront shows
 * it on the home page, and a page's first `Intl` call loads the runtime's locale data, one long
 * task on a phone's main thread (the same reason as `longDate`).
 */
export const groupedCount = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
