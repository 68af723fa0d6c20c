import type { OwnerDiscount } from '../../../common/schemas/discounts.ts';
import { dayIn, lastDayIn } from '../../../common/shop-days.ts';
import { useToast } from '../../components/toasts.tsx';
import { useDiscountSwitch, useDiscounts, useKits } from './admin-api.ts';
import { CardTable } from './data-table.tsx';
import { off } from './discount-terms.ts';
import { count, day } from './format.ts';
import { NewDiscountForm } from './new-discount-form.tsx';
import { EmptyState, errorText, PageHeader, QueryState } from './ui.tsx';

/** Whether a code can be used now, and if not why: paused, not yet, expired, used up. */
function standing(d: OwnerDiscount, now = new Date()): { label: string; variant: string } {
  if (!d.active) return { label: 'Paused', variant: 'text-bg-secondary' };
  if (d.starts_at && new Date(d.starts_at) > now) return { label: 'Scheduled', variant: 'text-bg-info' };
  if (d.ends_at && new Date(d.ends_at) <= now) return { label: 'Expired', variant: 'text-bg-secondary' };
  if (d.max_redemptions !== null && d.redemptions >= d.max_redemptions)
    return { label: 'Used up', variant: 'text-bg-warning' };
  return { label: 'Active', variant: 'text-bg-success' };
}

/**
 * Discount codes: a form for a new code, and every code with its terms, its uses (paid orders that
 * used it and were not refunded) and a switch to pause or resume it.
 */
export default function DiscountsPage() {
  const discounts = useDiscounts();
  const kits = useKits();
  const change = useDiscountSwitch();
  const toast = useToast();
  const titles = new Map((kits.data ?? []).map((k) => [k.id, k.title]));
  const zone = discounts.data?.time_zone;

  const flip = (d: OwnerDiscount) =>
    change.mutate(
      { code: d.code, active: !d.active },
      {
        onSuccess: (changed) =>
          toast({
            title: changed.active ? 'Code resumed' : 'Code paused',
            body: `${changed.code} is ${changed.active ? 'active' : 'paused'}.`,
          }),
        onError: (error) => toast({ title: 'Not changed', body: errorText(error), variant: 'danger' }),
      },
    );

  return (
    <>
      <PageHeader title="Discounts" />
      <NewDiscountForm timeZone={zone} />
      <QueryState query={discounts} label="discount codes" />
      {discounts.data && discounts.data.items.length === 0 && (
        <EmptyState>No discount codes yet: create one above, or with npm run discounts -- create.</EmptyState>
      )}
      {discounts.data && discounts.data.items.length > 0 && (
        <CardTable
          rows={discounts.data.items}
          rowKey={(d) => d.code}
          caption="Discount codes"
          rowClassName={(d) => (standing(d).label === 'Active' ? undefined : 'admin-row-muted')}
          columns={[
            { header: 'Code', rowHeader: true, cell: (d) => <code className="fw-bold">{d.code}</code> },
            { header: 'Discount', className: 'text-nowrap', cell: off },
            {
              header: 'Kits',
              cell: (d) => (d.kit_ids ? d.kit_ids.map((id) => titles.get(id) ?? `#${id}`).join(', ') : 'Every kit'),
            },
            {
              // Days in the shop's zone, the end the last day the code works (stored ends are exclusive).
              header: zone ? `Valid (${zone})` : 'Valid',
              className: 'text-nowrap',
              cell: (d) =>
                d.starts_at || d.ends_at
                  ? `${d.starts_at ? day(dayIn(d.starts_at, zone ?? 'UTC')) : '…'} – ${
                      d.ends_at ? day(lastDayIn(d.ends_at, zone ?? 'UTC')) : '…'
                    }`
                  : 'Always',
            },
            {
              header: 'Redemptions',
              end: true,
              cell: (d) => (
                <span data-testid={`redemptions-${d.code}`}>
                  {count(d.redemptions)}
                  {d.max_redemptions !== null ? ` / ${count(d.max_redemptions)}` : ''}
                </span>
              ),
            },
            {
              header: 'Status',
              className: 'text-nowrap',
              cell: (d) => {
                const { label, variant } = standing(d);
                return (
                  <>
                    <span className={`badge me-2 ${variant}`}>{label}</span>
                    {d.once_per_customer && <span className="badge text-bg-light me-2">Once per customer</span>}
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-secondary"
                      aria-label={`${d.active ? 'Pause' : 'Resume'} ${d.code}`}
                      disabled={change.isPending}
                      onClick={() => flip(d)}
                    >
                      {d.active ? 'Pause' : 'Resume'}
                    </button>
                  </>
                );
              },
            },
          ]}
        />
      )}
    </>
  );
}
