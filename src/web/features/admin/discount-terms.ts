import type { OwnerDiscount } from '../../../common/schemas/discounts.ts';
import { money } from './format.ts';

/** What the code takes off, as the table and the toasts say it. */
export const off = (d: OwnerDiscount) =>
  d.percent_off !== null ? `${d.percent_off}% off` : `${money(d.amount_off ?? 0)} off`;
