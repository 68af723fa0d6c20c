import { useState } from 'react';
import { Link } from 'react-router';
import type { OwnerOrderDetail } from '../../../common/schemas/owner.ts';
import { Check } from '../../components/field.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useRefund } from './admin-api.ts';
import { money } from './format.ts';
import { ConfirmDialog, errorText, TextArea } from './ui.tsx';

type Line = OwnerOrderDetail['lines'][number];
const cents = (dollars: number) => Math.round(dollars * 100);
/** What a refund of the line in full gives back: what earlier refunds left. */
const leftCents = (line: Line) => cents(line.price) - cents(line.refunded_amount);

/** The upgrades a refund of these lines ends: what stays paid of what they counted falls below their credit. */
function upgradesEnded(upgrades: OwnerOrderDetail['upgrades'], refunding: Line[]) {
  return upgrades.filter((u) => {
    const taken = refunding.filter((l) => u.kit_ids.includes(l.kit_id)).reduce((sum, l) => sum + leftCents(l), 0);
    return taken > 0 && cents(u.covered) - taken < cents(u.credit);
  });
}

type Scope = 'whole' | 'lines';
const SCOPES: [Scope, string][] = [
  ['whole', 'Whole order'],
  ['lines', 'Chosen lines'],
];

/** Where a refund starts: the whole order, or one line (its kit). */
export type RefundStart = { kitId?: number };

/**
 * The refund dialog: the whole order or chosen lines, the upgrades such a refund ends, and a
 * reason. Each opening (`start`) starts afresh; `onRequested` hears that the provider will approve
 * the refund later.
 */
export function RefundDialog({
  order,
  start,
  onClose,
  onRequested,
}: {
  order: OwnerOrderDetail;
  /** Null while closed. */
  start: RefundStart | null;
  onClose: () => void;
  onRequested: () => void;
}) {
  const refund = useRefund(order.id);
  const toast = useToast();
  const [scope, setScope] = useState<Scope>('whole');
  const [chosen, setChosen] = useState<number[]>([]);
  const reasonState = useState('');
  const [reason, setReason] = reasonState;
  const [opened, setOpened] = useState<RefundStart | null>(null);
  if (start !== opened) {
    setOpened(start);
    if (start) {
      setScope(start.kitId === undefined ? 'whole' : 'lines');
      setChosen(start.kitId === undefined ? [] : [start.kitId]);
      setReason('');
    }
  }

  const open = order.lines.filter((line) => !line.refunded);
  const refunding = scope === 'whole' ? open : open.filter((l) => chosen.includes(l.kit_id));
  const refundTotal = refunding.reduce((sum, line) => sum + leftCents(line), 0) / 100;
  const ending = upgradesEnded(order.upgrades, refunding);

  const close = () => {
    onClose();
    refund.reset();
  };
  const submit = () =>
    refund.mutate(
      { reason: reason.trim(), ...(scope === 'lines' ? { kit_ids: chosen } : {}) },
      {
        onSuccess: (answer) => {
          onClose();
          if (answer.refund_requested) {
            onRequested();
            toast({ title: 'Refund requested', body: 'Access ends when the payment provider approves it.' });
          } else {
            toast({ title: 'Refund done', body: `${money(refundTotal)} refunded on order ${order.id}.` });
          }
        },
      },
    );

  return (
    <ConfirmDialog
      show={start !== null}
      title={`Refund order ${order.id}`}
      confirmLabel={`Refund ${money(refundTotal)}`}
      variant="danger"
      busy={refund.isPending}
      error={refund.isError ? errorText(refund.error, 'The refund failed.') : null}
      disabled={!reason.trim() || (scope === 'lines' && chosen.length === 0)}
      onConfirm={submit}
      onClose={close}
    >
      <fieldset className="mb-3">
        <legend className="form-label fs-6">What to refund</legend>
        {SCOPES.map(([value, label]) => (
          <Check
            key={value}
            id={`refund-${value}`}
            label={label}
            type="radio"
            checked={scope === value}
            onChange={() => setScope(value)}
          />
        ))}
        {scope === 'lines' && (
          <div className="ms-4 mt-2">
            {open.map((line) => (
              <Check
                key={line.kit_id}
                id={`refund-line-${line.kit_id}`}
                label={`${line.title} (${money(leftCents(line) / 100)})`}
                type="checkbox"
                checked={chosen.includes(line.kit_id)}
                onChange={(e) =>
                  setChosen((current) =>
                    e.target.checked ? [...current, line.kit_id] : current.filter((k) => k !== line.kit_id),
                  )
                }
              />
            ))}
          </div>
        )}
      </fieldset>
      {ending.length > 0 && (
        <div className="alert alert-warning small" role="status">
          {ending.map((u) => (
            <p key={u.order_id} className="mb-1">
              This also ends <strong>{u.title}</strong> (order{' '}
              <Link to={`/admin/orders/${encodeURIComponent(u.order_id)}`}>{u.order_id}</Link>, bought for{' '}
              {money(u.price)} as an upgrade that counted this purchase): the buyer loses it and its kits, unless
              something else pays for them.
            </p>
          ))}
          <p className="mb-0">What was paid for the upgrade stays paid: refund that order too to give it back.</p>
        </div>
      )}
      <TextArea
        id="refund-reason"
        label="Reason"
        required
        state={reasonState}
        hint="The buyer loses the kits refunded at once: purchases, downloads and setup guide. A bundle bought at an upgrade price that counted them ends too."
      />
    </ConfirmDialog>
  );
}
