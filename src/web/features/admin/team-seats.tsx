import { useState } from 'react';
import type { OwnerTeam } from '../../../common/schemas/owner.ts';
import { useToast } from '../../components/toasts.tsx';
import { useFreeSeat } from './admin-api.ts';
import { CardTable } from './data-table.tsx';
import { dateTime } from './format.ts';
import { ConfirmDialog, errorText } from './ui.tsx';

type Member = OwnerTeam['members'][number];

/**
 * A Team licence's seats on the order and customer pages: who holds or was invited to each, and
 * `Free Seat` (a member loses access, an invitation stops working), confirmed first.
 */
export function TeamSeats({ teams }: { teams: OwnerTeam[] | undefined }) {
  const [freeing, setFreeing] = useState<Member | null>(null);
  const free = useFreeSeat();
  const toast = useToast();
  if (!teams || teams.length === 0) return null;
  const close = () => {
    setFreeing(null);
    free.reset();
  };
  const confirm = () =>
    free.mutate(freeing!.id, {
      onSuccess: () => {
        toast({ title: 'Seat freed', body: `${freeing!.email} no longer holds a seat.` });
        setFreeing(null);
      },
    });
  return (
    <div className="mb-4">
      {teams.map((team) => (
        <div className="mb-3" key={`${team.order_id}|${team.title}`}>
          <CardTable
            title={`Seats of ${team.title}: ${team.used} of ${team.seats} used`}
            rows={team.members}
            empty="Only the buyer holds a seat."
            rowKey={(member) => member.id}
            columns={[
              { header: 'Member', className: 'text-break', cell: (m) => (m.name ? `${m.name} (${m.email})` : m.email) },
              {
                header: 'State',
                cell: (m) =>
                  m.status === 'active' ? (
                    <span className="badge text-bg-success">Member</span>
                  ) : (
                    <span className="badge text-bg-warning">Invited</span>
                  ),
              },
              {
                header: 'Since',
                className: 'text-nowrap',
                cell: (m) => dateTime(m.accepted_at ?? m.invited_at),
              },
              {
                header: null,
                className: 'text-end',
                cell: (m) => (
                  <button
                    type="button"
                    className="btn btn-sm btn-link text-danger p-0"
                    onClick={() => setFreeing(m)}
                    aria-label={`Free Seat of ${m.email}`}
                  >
                    Free Seat
                  </button>
                ),
              },
            ]}
          />
        </div>
      ))}
      <ConfirmDialog
        show={freeing !== null}
        title="Free this seat"
        confirmLabel="Free Seat"
        variant="danger"
        busy={free.isPending}
        error={free.isError ? errorText(free.error, 'The seat could not be freed.') : null}
        onConfirm={confirm}
        onClose={close}
      >
        <p className="mb-0">
          {freeing?.status === 'active'
            ? `${freeing.email} loses the kit, its downloads and its GitHub access at once.`
            : `The invitation to ${freeing?.email} stops working.`}
        </p>
      </ConfirmDialog>
    </div>
  );
}
