import terms from '../../../content/refund-terms.json';

/**
 * The refund policy's terms, from content/refund-terms.json: the one source of the days that the
 * refund policy's text (its `{{refund_days}}` placeholders, filled in by the server from the same
 * file), the home page's FAQ and the price's facts on the cards and product pages all state.
 */
export const REFUND_TERMS: { readonly days: number; readonly critical_bug_fix_days: number } = terms;

/** The placeholders a text may use for them (`{{refund_days}}`), and their values. */
export const REFUND_PLACEHOLDERS = {
  refund_days: REFUND_TERMS.days,
  refund_bug_fix_days: REFUND_TERMS.critical_bug_fix_days,
} as const;

/** `{{refund_days}}` and `{{refund_bug_fix_days}}` in a text of the shop's own copy, filled in. */
export const fillRefundTerms = (text: string): string =>
  text.replace(/\{\{(\w+)\}\}/g, (all, name: string) =>
    name in REFUND_PLACEHOLDERS ? String(REFUND_PLACEHOLDERS[name as keyof typeof REFUND_PLACEHOLDERS]) : all,
  );
