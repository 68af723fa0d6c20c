import { type FormEvent, useState } from 'react';
import type { OwnerDiscount } from '../../../common/schemas/discounts.ts';
import { Check, Field, SelectField } from '../../components/field.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useCreateDiscount, useDiscountSwitch, useDiscounts, useKits } from './admin-api.ts';
import { CardTable } from './data-table.tsx';
import { count, day, money } from './format.ts';
import { EmptyState, errorText, PageHeader, QueryState } from './ui.tsx';

/** What the code takes off, as the table says it. */
const off = (d: OwnerDiscount) =>
  d.percent_off !== null ? `${d.percent_off}% off` : `${money(d.amount_off ?? 0)} off`;

/** Whether a code can be used now, and if not why: paused, not yet, expired, used up. */
function standing(d: OwnerDiscount, now = new Date()): { label: string; variant: string } {
  if (!d.active) return { label: 'Paused', variant: 'text-bg-secondary' };
  if (d.starts_at && new Date(d.starts_at) > now) return { label: 'Scheduled', variant: 'text-bg-info' };
  if (d.ends_at && new Date(d.ends_at) <= now) return { label: 'Expired', variant: 'text-bg-secondary' };
  if (d.max_redemptions !== null && d.redemptions >= d.max_redemptions)
    return { label: 'Used up', variant: 'text-bg-warning' };
  return { label: 'Active', variant: 'text-bg-success' };
}

/** A day from the date field as the API takes it (midnight UTC), or nothing. */
const isoDayOrNull = (value: string) => (value ? value : null);

function NewDiscountForm() {
  const kits = useKits();
  const create = useCreateDiscount();
  const toast = useToast();
  const [code, setCode] = useState('');
  const [kind, setKind] = useState<'percent' | 'amount'>('percent');
  const [value, setValue] = useState('');
  const [kitIds, setKitIds] = useState<number[]>([]);
  const [startsAt, setStartsAt] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [max, setMax] = useState('');
  const [once, setOnce] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const amount = Number(value);
    create.mutate(
      {
        code: code.trim(),
        ...(kind === 'percent' ? { percent_off: amount } : { amount_off: amount }),
        kit_ids: kitIds.length > 0 ? kitIds : null,
        starts_at: isoDayOrNull(startsAt),
        ends_at: isoDayOrNull(endsAt),
        max_redemptions: max ? Number(max) : null,
        once_per_customer: once,
      },
      {
        onSuccess: (created) => {
          toast({ title: 'Discount created', body: `${created.code}: ${off(created)}.` });
          setCode('');
          setValue('');
          setKitIds([]);
          setStartsAt('');
          setEndsAt('');
          setMax('');
          setOnce(false);
        },
      },
    );
  };

  const toggleKit = (id: number) =>
    setKitIds((ids) => (ids.includes(id) ? ids.filter((k) => k !== id) : [...ids, id].sort((a, b) => a - b)));

  return (
    <form className="card admin-card mb-4" onSubmit={submit} aria-labelledby="new-discount-title">
      <div className="card-body">
        <h2 id="new-discount-title" className="h6 fw-bold mb-3">
          New discount code
        </h2>
        <div className="row g-3">
          <Field
            spacing="col-12 col-md-4"
            id="discount-code"
            label="Code"
            required
            maxLength={40}
            pattern="[A-Za-z0-9_\-]{2,40}"
            value={code}
            onChange={setCode}
          />
          <SelectField
            spacing="col-6 col-md-4"
            id="discount-kind"
            label="Takes off"
            none={null}
            options={[
              { value: 'percent', label: 'Percent off' },
              { value: 'amount', label: 'Amount off (USD)' },
            ]}
            value={kind}
            onChange={(e) => setKind(e.target.value as 'percent' | 'amount')}
          />
          <Field
            spacing="col-6 col-md-4"
            id="discount-value"
            label={kind === 'percent' ? 'Percent' : 'Amount (USD)'}
            type="number"
            required
            min={kind === 'percent' ? 1 : 0.01}
            max={kind === 'percent' ? 100 : undefined}
            step={kind === 'percent' ? 1 : 0.01}
            value={value}
            onChange={setValue}
          />
          <Field
            spacing="col-6 col-md-3"
            id="discount-starts"
            label="Starts (optional)"
            type="date"
            value={startsAt}
            onChange={setStartsAt}
          />
          <Field
            spacing="col-6 col-md-3"
            id="discount-ends"
            label="Ends (optional)"
            type="date"
            value={endsAt}
            onChange={setEndsAt}
          />
          <Field
            spacing="col-6 col-md-3"
            id="discount-max"
            label="Maximum uses (optional)"
            type="number"
            min={1}
            step={1}
            value={max}
            onChange={setMax}
          />
          <div className="col-6 col-md-3 d-flex align-items-end">
            <Check
              id="discount-once"
              wrapper="mb-2"
              type="checkbox"
              label="Once per customer"
              checked={once}
              onChange={(e) => setOnce(e.target.checked)}
            />
          </div>
          <fieldset className="col-12">
            <legend className="form-label fs-6 mb-1">Applies to (none ticked: every kit)</legend>
            <div className="d-flex flex-wrap gap-3">
              {(kits.data ?? [])
                .filter((k) => k.active)
                .map((kit) => (
                  <div className="form-check" key={kit.id}>
                    <input
                      id={`discount-kit-${kit.id}`}
                      className="form-check-input"
                      type="checkbox"
                      checked={kitIds.includes(kit.id)}
                      onChange={() => toggleKit(kit.id)}
                    />
                    <label htmlFor={`discount-kit-${kit.id}`} className="form-check-label">
                      {kit.title}
                    </label>
                  </div>
                ))}
            </div>
          </fieldset>
        </div>
        {create.isError && (
          <div className="alert alert-danger mt-3 mb-0" role="alert">
            {errorText(create.error, 'The code was not created.')}
          </div>
        )}
        <button type="submit" className="btn btn-primary mt-3" disabled={create.isPending}>
          Create code
        </button>
      </div>
    </form>
  );
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
      <NewDiscountForm />
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
              header: 'Valid',
              className: 'text-nowrap',
              cell: (d) =>
                d.starts_at || d.ends_at
                  ? `${d.starts_at ? day(d.starts_at) : '…'} – ${d.ends_at ? day(d.ends_at) : '…'}`
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
