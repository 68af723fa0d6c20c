import type { OwnerOrder } from '../../../common/schemas/owner.ts';

export type OrderStatus = OwnerOrder['status'];

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const whole = new Intl.NumberFormat('en-US');

/** 1234.5 -> "$1,234.50" */
export const money = (dollars: number) => usd.format(dollars);
/** 12345 -> "12,345" */
export const count = (value: number) => whole.format(value);
/** 0.0345 -> "3.5%" */
export const percent = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;

/** An ISO time as "3 Mar 2026, 14:05" in the owner's own time zone; "—" for none. */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

/** "2026-03-03" -> "3 Mar 2026" (a calendar day, the same in every time zone). */
export function day(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(`${value.slice(0, 10)}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** A local calendar day as YYYY-MM-DD. */
export function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export const STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  partially_refunded: 'Partially refunded',
  refunded: 'Refunded',
  flagged: 'Flagged',
};

/** The statuses in the order the Status filter lists them. */
export const ORDER_STATUSES = Object.keys(STATUS_LABELS) as OrderStatus[];

export const STATUS_VARIANTS: Record<OrderStatus, string> = {
  pending: 'secondary',
  paid: 'success',
  partially_refunded: 'warning',
  refunded: 'danger',
  flagged: 'dark',
};

/** The record id in /admin/orders/{id} or /admin/customers/{id}, decoded; '' when malformed. */
export function recordId(pathname: string): string {
  const last = pathname.replace(/\/+$/, '').split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return '';
  }
}
