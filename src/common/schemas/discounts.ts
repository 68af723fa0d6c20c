import { z } from 'zod';
import { DISCOUNT_CODE_CHARS, DISCOUNT_CODE_LENGTH } from '../constants.ts';
import { parseDollarsToCents } from '../money.ts';
import { isDay } from '../shop-days.ts';

/** Discount codes in the owner console (`/api/admin/discounts`) and `npm run discounts`. */

/** Letters, digits, `-` and `_`: a code fits in a link (`?code=SPRING`) as it is. */
export const DiscountCodeText = z
  .string()
  .trim()
  .min(DISCOUNT_CODE_LENGTH.min, `must be at least ${DISCOUNT_CODE_LENGTH.min} characters`)
  .max(DISCOUNT_CODE_LENGTH.max, `must be at most ${DISCOUNT_CODE_LENGTH.max} characters`)
  .regex(new RegExp(`^[${DISCOUNT_CODE_CHARS}]+$`), 'letters, digits, - and _ only');

/**
 * A day (`2026-12-01`, kept as typed: the server reads it in the shop's time zone, a start as the
 * day's first moment and an end as the whole day included) or a moment with its offset
 * (`2026-12-01T09:00:00Z`, made ISO; an end moment is the first one the code no longer works).
 */
const Moment = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2}))?$/, 'must be an ISO date')
  .refine((v) => !Number.isNaN(Date.parse(v)), 'must be a real date')
  .transform((v) => (isDay(v) ? v : new Date(v).toISOString()));

const Dollars = z
  .number()
  .positive('must be above 0')
  .max(1_000_000, 'must be at most 1000000')
  .refine((v) => parseDollarsToCents(String(v)) !== null, 'must be dollars with at most 2 decimals');

export const DiscountCreateSchema = z
  .object({
    code: DiscountCodeText,
    percent_off: z.number().int('must be a whole number').min(1).max(100).nullish(),
    amount_off: Dollars.nullish(),
    kit_ids: z
      .array(z.number().int().positive().max(2_147_483_647))
      .min(1, 'name at least one kit, or leave it out for every kit')
      .max(200)
      .nullish(),
    starts_at: Moment.nullish(),
    ends_at: Moment.nullish(),
    max_redemptions: z.number().int('must be a whole number').min(1).max(10_000_000).nullish(),
    once_per_customer: z.boolean().optional().default(false),
    paddle_discount_id: z
      .string()
      .trim()
      .regex(/^dsc_[a-z0-9]{10,40}$/, 'must be a Paddle discount id (dsc_...)')
      .nullish(),
  })
  .superRefine((input, ctx) => {
    const both = input.percent_off != null && input.amount_off != null;
    const neither = input.percent_off == null && input.amount_off == null;
    if (both || neither)
      ctx.addIssue({ code: 'custom', path: ['percent_off'], message: 'give either percent_off or amount_off' });
    // Two days may be the same day (a one-day code); a day against a moment depends on the shop's
    // time zone, so the server checks that pair once it has made both instants.
    const { starts_at: starts, ends_at: ends } = input;
    if (starts && ends && isDay(starts) === isDay(ends) && (isDay(ends) ? ends < starts : ends <= starts))
      ctx.addIssue({ code: 'custom', path: ['ends_at'], message: 'The end must be after the start.' });
  });
export type DiscountCreate = z.input<typeof DiscountCreateSchema>;

export const DiscountActiveSchema = z.object({ active: z.boolean() });

/**
 * One code as the owner sees it; `kit_ids` null means every kit, dates are ISO instants or null
 * (`ends_at` exclusive: the first moment the code no longer works).
 */
export type OwnerDiscount = {
  code: string;
  percent_off: number | null;
  amount_off: number | null;
  kit_ids: number[] | null;
  starts_at: string | null;
  ends_at: string | null;
  max_redemptions: number | null;
  redemptions: number;
  once_per_customer: boolean;
  active: boolean;
  paddle_discount_id: string | null;
  created_at: string;
};
