import { type FormEvent, useState } from 'react';
import type { OwnerKit } from '../../../common/schemas/owner.ts';
import { Check, Field, SelectField } from '../../components/field.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useCreateDiscount, useKits } from './admin-api.ts';
import { off } from './discount-terms.ts';
import { errorText } from './ui.tsx';

/** The form as typed: every field a string or a choice, read into the API's shape on submit. */
type Draft = {
  code: string;
  kind: 'percent' | 'amount';
  value: string;
  kitIds: number[];
  startsAt: string;
  endsAt: string;
  max: string;
  once: boolean;
};
const EMPTY: Draft = {
  code: '',
  kind: 'percent',
  value: '',
  kitIds: [],
  startsAt: '',
  endsAt: '',
  max: '',
  once: false,
};

type Edit = <K extends keyof Draft>(key: K) => (value: Draft[K]) => void;

/** A day from the date field as the API takes it (a day in the shop's zone, read by the server), or nothing. */
const isoDayOrNull = (value: string) => (value ? value : null);

/** The code and what it takes off: a percent or an amount. */
function AmountFields({ draft, edit }: { draft: Draft; edit: Edit }) {
  const percent = draft.kind === 'percent';
  return (
    <>
      <Field
        spacing="col-12 col-md-4"
        id="discount-code"
        label="Code"
        required
        maxLength={40}
        pattern="[A-Za-z0-9_\-]{2,40}"
        value={draft.code}
        onChange={edit('code')}
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
        value={draft.kind}
        onChange={(e) => edit('kind')(e.target.value as Draft['kind'])}
      />
      <Field
        spacing="col-6 col-md-4"
        id="discount-value"
        label={percent ? 'Percent' : 'Amount (USD)'}
        type="number"
        required
        min={percent ? 1 : 0.01}
        max={percent ? 100 : undefined}
        step={percent ? 1 : 0.01}
        value={draft.value}
        onChange={edit('value')}
      />
    </>
  );
}

/**
 * When the code can be used, how many times, and whether once per customer. The dates are whole
 * days in the shop's zone (SHOP_TIME_ZONE), named under them once the server has said which.
 */
function LimitFields({ draft, edit, timeZone }: { draft: Draft; edit: Edit; timeZone?: string }) {
  const zone = timeZone ? `, dates in ${timeZone}` : '';
  return (
    <>
      <Field
        spacing="col-6 col-md-3"
        id="discount-starts"
        label="Starts (optional)"
        hint={`From the start of this day${zone}`}
        type="date"
        value={draft.startsAt}
        onChange={edit('startsAt')}
      />
      <Field
        spacing="col-6 col-md-3"
        id="discount-ends"
        label="Ends (optional)"
        hint={`The last day it works${zone}`}
        type="date"
        value={draft.endsAt}
        onChange={edit('endsAt')}
      />
      <Field
        spacing="col-6 col-md-3"
        id="discount-max"
        label="Maximum uses (optional)"
        type="number"
        min={1}
        step={1}
        value={draft.max}
        onChange={edit('max')}
      />
      <div className="col-6 col-md-3 d-flex align-items-end">
        <Check
          id="discount-once"
          wrapper="mb-2"
          type="checkbox"
          label="Once per customer"
          checked={draft.once}
          onChange={(e) => edit('once')(e.target.checked)}
        />
      </div>
    </>
  );
}

/** The kits on the store the code applies to; none ticked means every kit. */
function KitChoice({
  kits,
  chosen,
  onChange,
}: {
  kits: OwnerKit[];
  chosen: number[];
  onChange: (ids: number[]) => void;
}) {
  const toggle = (id: number) =>
    onChange(chosen.includes(id) ? chosen.filter((k) => k !== id) : [...chosen, id].sort((a, b) => a - b));
  return (
    <fieldset className="col-12">
      <legend className="form-label fs-6 mb-1">Applies to (none ticked: every kit)</legend>
      <div className="d-flex flex-wrap gap-3">
        {kits
          .filter((k) => k.active)
          .map((kit) => (
            <div className="form-check" key={kit.id}>
              <input
                id={`discount-kit-${kit.id}`}
                className="form-check-input"
                type="checkbox"
                checked={chosen.includes(kit.id)}
                onChange={() => toggle(kit.id)}
              />
              <label htmlFor={`discount-kit-${kit.id}`} className="form-check-label">
                {kit.title}
              </label>
            </div>
          ))}
      </div>
    </fieldset>
  );
}

/** A new discount code: its amount, its limits and its kits; cleared once created (the kind stays). */
export function NewDiscountForm({ timeZone }: { timeZone?: string }) {
  const kits = useKits();
  const create = useCreateDiscount();
  const toast = useToast();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const edit: Edit = (key) => (value) => setDraft((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const amount = Number(draft.value);
    create.mutate(
      {
        code: draft.code.trim(),
        ...(draft.kind === 'percent' ? { percent_off: amount } : { amount_off: amount }),
        kit_ids: draft.kitIds.length > 0 ? draft.kitIds : null,
        starts_at: isoDayOrNull(draft.startsAt),
        ends_at: isoDayOrNull(draft.endsAt),
        max_redemptions: draft.max ? Number(draft.max) : null,
        once_per_customer: draft.once,
      },
      {
        onSuccess: (created) => {
          toast({ title: 'Discount created', body: `${created.code}: ${off(created)}.` });
          setDraft((current) => ({ ...EMPTY, kind: current.kind }));
        },
      },
    );
  };

  return (
    <form className="card admin-card mb-4" onSubmit={submit} aria-labelledby="new-discount-title">
      <div className="card-body">
        <h2 id="new-discount-title" className="h6 fw-bold mb-3">
          New discount code
        </h2>
        <div className="row g-3">
          <AmountFields draft={draft} edit={edit} />
          <LimitFields draft={draft} edit={edit} timeZone={timeZone} />
          <KitChoice kits={kits.data ?? []} chosen={draft.kitIds} onChange={edit('kitIds')} />
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
