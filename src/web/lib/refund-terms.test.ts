import { describe, expect, it } from 'vitest';
import home from '../../../content/home.json';
import { fillRefundTerms, REFUND_PLACEHOLDERS, REFUND_TERMS } from './refund-terms.ts';

describe('the refund terms', () => {
  it('fill their placeholders in the shop’s own copy, and leave others alone', () => {
    expect(fillRefundTerms('within {{refund_days}} days, fixed in {{refund_bug_fix_days}} days')).toBe(
      `within ${REFUND_TERMS.days} days, fixed in ${REFUND_TERMS.critical_bug_fix_days} days`,
    );
    expect(fillRefundTerms('{{other}}')).toBe('{{other}}');
  });

  it('leave no placeholder in the home page’s FAQ', () => {
    const answers = home.faq.items.map((item) => fillRefundTerms(item.a)).join('\n');
    expect(answers).not.toMatch(/\{\{|\}\}/);
    expect(answers).toContain(`within ${REFUND_PLACEHOLDERS.refund_days} days if the product was not delivered`);
  });
});
