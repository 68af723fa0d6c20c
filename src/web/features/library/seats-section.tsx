import './seats-section.scss';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { Seat, SeatsResponse } from '../../../common/schemas/seats.ts';
import { useToast } from '../../components/toasts.tsx';
import { ApiError, apiGet, apiPost } from '../../lib/api.ts';

/**
 * The item page's seats: for the buyer of a Team licence, "N of M seats used", the members and
 * invitations (Remove, Resend, Cancel) and a form to invite a colleague; for a member of someone's
 * team, who manages their seat. Nothing for a Solo purchase.
 */

const seatsKey = (sefId: string) => ['seats', sefId] as const;
const seatsPath = (sefId: string) => `/api/seats/${encodeURIComponent(sefId)}`;

const when = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

function SeatRow({
  seat,
  busy,
  onAction,
}: {
  seat: Seat;
  busy: boolean;
  onAction: (seat: Seat, action: 'remove' | 'cancel' | 'resend') => void;
}) {
  const who = seat.name ? `${seat.name} (${seat.email})` : seat.email;
  return (
    <li className="seat-row">
      <div className="seat-who">
        <span className="seat-name">{seat.name ?? seat.email}</span>
        {seat.name && <span className="seat-email">{seat.email}</span>}
      </div>
      <span className={`seat-status is-${seat.status}`}>
        {seat.status === 'owner'
          ? 'You · manager'
          : seat.status === 'active'
            ? `Member since ${when(seat.accepted_at!)}`
            : `Invited ${when(seat.invited_at)}`}
      </span>
      {seat.status !== 'owner' && (
        <div className="seat-actions">
          {seat.status === 'active' ? (
            <button
              type="button"
              className="btn btn-sm btn-outline-danger"
              disabled={busy}
              aria-label={`Remove ${who}`}
              onClick={() => onAction(seat, 'remove')}
            >
              Remove
            </button>
          ) : (
            <>
              <button
                type="button"
                className="btn btn-sm btn-outline-secondary"
                disabled={busy}
                aria-label={`Resend invitation to ${seat.email}`}
                onClick={() => onAction(seat, 'resend')}
              >
                Resend
              </button>
              <button
                type="button"
                className="btn btn-sm btn-outline-danger"
                disabled={busy}
                aria-label={`Cancel invitation to ${seat.email}`}
                onClick={() => onAction(seat, 'cancel')}
              >
                Cancel
              </button>
            </>
          )}
        </div>
      )}
    </li>
  );
}

function InviteForm({ sefId, full, onDone }: { sefId: string; full: boolean; onDone: (s: SeatsResponse) => void }) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const seats = await apiPost<SeatsResponse>(`${seatsPath(sefId)}/invite`, { email });
      onDone(seats);
      toast({ title: 'Invitation Sent', body: `We mailed an invitation to ${email.trim()}.` });
      setEmail('');
    } catch (caught) {
      // The server names the field ("email: ...") or the rule the invitation broke.
      setError(caught instanceof ApiError ? caught.message.replace(/^email: /, '') : 'Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="seat-invite" onSubmit={submit} noValidate>
      <label htmlFor={`${id}-email`} className="form-label">
        Email
      </label>
      <div className="seat-invite-row">
        <input
          id={`${id}-email`}
          type="email"
          className={`form-control${error ? ' is-invalid' : ''}`}
          value={email}
          autoComplete="off"
          placeholder="colleague@example.com"
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          aria-invalid={error ? true : undefined}
          onChange={(event) => setEmail(event.target.value)}
        />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Inviting…' : 'Invite'}
        </button>
      </div>
      {error ? (
        <p id={`${id}-error`} className="invalid-feedback d-block" role="alert">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="form-text">
          {full
            ? 'Every seat is taken: remove a member or cancel an invitation to invite someone else.'
            : 'They get a link by mail, and accept after signing in or signing up with that address.'}
        </p>
      )}
    </form>
  );
}

export function SeatsSection({ sefId }: { sefId: string }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const { data } = useQuery({
    queryKey: seatsKey(sefId),
    queryFn: () => apiGet<SeatsResponse>(seatsPath(sefId)),
    gcTime: 0,
    retry: false,
  });
  const update = (seats: SeatsResponse) => queryClient.setQueryData(seatsKey(sefId), seats);
  if (!data) return null;
  if (data.managed_by) {
    const manager = data.managed_by;
    return (
      <section className="item-seats" aria-labelledby="seats-heading">
        <h2 id="seats-heading">Seats</h2>
        <p className="mb-0">
          You hold a seat of a {manager.licence} licence managed by <strong>{manager.name}</strong> ({manager.email}).
          Ask them if you need your seat moved or freed.
        </p>
      </section>
    );
  }
  if (!data.team) return null;
  const { team } = data;
  const onAction = async (seat: Seat, action: 'remove' | 'cancel' | 'resend') => {
    setBusy(true);
    try {
      update(await apiPost<SeatsResponse>(`${seatsPath(sefId)}/${seat.id}/${action}`, {}));
      const text = {
        remove: [`Seat Freed`, `${seat.email} no longer has access.`],
        cancel: ['Invitation Cancelled', `The invitation to ${seat.email} no longer works.`],
        resend: ['Invitation Sent', `We mailed a new link to ${seat.email}.`],
      }[action];
      toast({ title: text[0]!, body: text[1]! });
    } catch (caught) {
      toast({
        title: 'Not Changed',
        body: caught instanceof ApiError ? caught.message : 'Please try again.',
        variant: 'warning',
      });
      await queryClient.invalidateQueries({ queryKey: seatsKey(sefId) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="item-seats" aria-labelledby="seats-heading">
      <div className="item-seats-head">
        <h2 id="seats-heading">Seats</h2>
        <p className="seats-used">
          <strong>
            {team.used} of {team.seats} seats used
          </strong>{' '}
          · {team.licence} licence
        </p>
      </div>
      <ul className="seat-list list-unstyled" aria-label="Members">
        {team.members.map((seat) => (
          <SeatRow key={seat.id ?? 'owner'} seat={seat} busy={busy} onAction={onAction} />
        ))}
      </ul>
      <InviteForm sefId={sefId} full={team.used >= team.seats} onDone={update} />
    </section>
  );
}
