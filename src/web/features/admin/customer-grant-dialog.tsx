import { useState } from 'react';
import type { OwnerCustomerDetail, OwnerKit } from '../../../common/schemas/owner.ts';
import { useToast } from '../../components/toasts.tsx';
import { useGrant } from './admin-api.ts';
import { ConfirmDialog, errorText, TextArea } from './ui.tsx';

/** What the dialog does: give a kit (chosen in it), or take back one the customer holds. */
export type GrantChange = { action: 'grant' } | { action: 'revoke'; kitId: number; title: string };

/**
 * The grant and revoke dialog, with a note for the activity log. Each opening (`change`) starts
 * afresh; null while closed.
 */
export function GrantDialog({
  customer,
  kits,
  change,
  onClose,
}: {
  customer: OwnerCustomerDetail;
  kits: OwnerKit[] | undefined;
  change: GrantChange | null;
  onClose: () => void;
}) {
  const grant = useGrant(customer.id);
  const toast = useToast();
  const [kitId, setKitId] = useState('');
  const noteState = useState('');
  const [note, setNote] = noteState;
  const [opened, setOpened] = useState<GrantChange | null>(null);
  if (change !== opened) {
    setOpened(change);
    if (change) {
      setKitId('');
      setNote('');
    }
  }

  const owned = new Set(customer.kits.map((k) => k.kit_id));
  const grantable = kits?.filter((k) => !owned.has(k.id)) ?? [];
  const titleOf = (kit: number) => kits?.find((k) => k.id === kit)?.title ?? `Kit ${kit}`;

  const close = () => {
    onClose();
    grant.reset();
  };
  const submit = () => {
    if (!change) return;
    const kit = change.action === 'grant' ? Number(kitId) : change.kitId;
    const title = change.action === 'grant' ? titleOf(kit) : change.title;
    grant.mutate(
      { action: change.action, kit_id: kit, note: note.trim() },
      {
        onSuccess: () => {
          onClose();
          toast({
            title: change.action === 'grant' ? 'Kit granted' : 'Kit revoked',
            body:
              change.action === 'grant'
                ? `${customer.email} can download ${title} now.`
                : `${customer.email} can no longer download ${title}.`,
          });
        },
      },
    );
  };

  return (
    <ConfirmDialog
      show={change !== null}
      title={change?.action === 'revoke' ? `Revoke ${change.title}` : 'Grant a kit'}
      confirmLabel={change?.action === 'revoke' ? 'Revoke' : 'Grant Kit'}
      variant={change?.action === 'revoke' ? 'danger' : 'primary'}
      busy={grant.isPending}
      error={grant.isError ? errorText(grant.error, 'The change failed.') : null}
      disabled={change?.action === 'grant' && !kitId}
      onConfirm={submit}
      onClose={close}
    >
      {change?.action === 'grant' ? (
        <>
          <label htmlFor="grant-kit" className="form-label">
            Kit
          </label>
          <select
            id="grant-kit"
            className="form-select mb-3"
            required
            value={kitId}
            onChange={(e) => setKitId(e.target.value)}
          >
            <option value="">Choose a kit…</option>
            {grantable.map((kit) => (
              <option key={kit.id} value={kit.id}>
                {kit.title}
                {kit.active ? '' : ' (hidden)'}
              </option>
            ))}
          </select>
        </>
      ) : (
        <p>
          {customer.email} will no longer see or download <strong>{change?.title}</strong>.
        </p>
      )}
      <TextArea id="grant-note" label="Note" state={noteState} hint="Kept in the activity log." />
    </ConfirmDialog>
  );
}
