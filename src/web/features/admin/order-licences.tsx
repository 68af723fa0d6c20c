import { useState } from 'react';
import type { OwnerLicence } from '../../../common/schemas/licences.ts';
import { useToast } from '../../components/toasts.tsx';
import { type LicenceAction, useLicenceAction, useOrderLicences } from './admin-api.ts';
import { CardTable } from './data-table.tsx';
import { dateTime } from './format.ts';
import { ConfirmDialog, errorText } from './ui.tsx';

const STATUS_BADGE: Record<OwnerLicence['status'], string> = {
  active: 'text-bg-success',
  inactive: 'text-bg-light',
  disabled: 'text-bg-warning',
  expired: 'text-bg-secondary',
  revoked: 'text-bg-danger',
};

const ACTIONS: Record<LicenceAction, { label: string; title: string; done: string; variant: 'danger' | 'primary' }> = {
  disable: { label: 'Disable', title: 'Disable the licence key', done: 'Key disabled', variant: 'danger' },
  enable: { label: 'Enable', title: 'Enable the licence key', done: 'Key enabled', variant: 'primary' },
  'reset-activations': {
    label: 'Reset Activations',
    title: 'Reset the activations',
    done: 'Activations reset',
    variant: 'danger',
  },
};

function explain(action: LicenceAction, licence: OwnerLicence) {
  if (action === 'disable')
    return `The kit’s tools will find ${licence.kit_title}’s key ${licence.key.slice(-4)} invalid until it is enabled again.`;
  if (action === 'enable') return `${licence.kit_title}’s key ${licence.key.slice(-4)} will validate again.`;
  return `All ${licence.activation_usage} activations of ${licence.kit_title}’s key ${licence.key.slice(-4)} end: the buyer can activate it on ${licence.activation_limit} machines again.`;
}

/** `Disable`, or `Enable` for a disabled key (a revoked key has neither: its licence ended). */
function SwitchButton({ licence, onAsk }: { licence: OwnerLicence; onAsk: (action: LicenceAction) => void }) {
  const action = licence.status === 'disabled' ? 'enable' : 'disable';
  return (
    <button
      type="button"
      className="btn btn-sm btn-outline-secondary"
      onClick={() => onAsk(action)}
      aria-label={`${ACTIONS[action].label} ${licence.kit_title} key`}
    >
      {ACTIONS[action].label}
    </button>
  );
}

/** The order's licence keys, masked, with `Disable`/`Enable` and `Reset Activations` (each asked first, and logged). */
export function OrderLicences({ orderId }: { orderId: string }) {
  const licences = useOrderLicences(orderId);
  const change = useLicenceAction();
  const toast = useToast();
  const [asked, setAsked] = useState<{ action: LicenceAction; licence: OwnerLicence } | null>(null);
  const close = () => {
    setAsked(null);
    change.reset();
  };
  const confirm = () => {
    if (!asked) return;
    change.mutate(
      { id: asked.licence.id, action: asked.action },
      {
        onSuccess: () => {
          toast({
            title: ACTIONS[asked.action].done,
            body: `${asked.licence.kit_title}: key ${asked.licence.key.slice(-4)}`,
          });
          setAsked(null);
        },
      },
    );
  };
  const items = licences.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <div className="mb-4">
      <CardTable
        title="Licence keys"
        rows={items}
        rowKey={(licence) => licence.id}
        columns={[
          {
            header: 'Kit and holder',
            cell: (licence) => (
              <>
                {licence.kit_title}
                <span className="small text-body-secondary d-block">{licence.holder}</span>
              </>
            ),
          },
          { header: 'Key', className: 'text-nowrap', cell: (licence) => <code>{licence.key}</code> },
          {
            header: 'Status',
            cell: (licence) => <span className={`badge ${STATUS_BADGE[licence.status]}`}>{licence.status}</span>,
          },
          {
            header: 'Activations',
            cell: (licence) => `${licence.activation_usage} of ${licence.activation_limit}`,
          },
          { header: 'Issued', className: 'text-nowrap', cell: (licence) => dateTime(licence.created_at) },
          {
            header: null,
            className: 'text-end text-nowrap',
            cell: (licence) => (
              <div className="d-inline-flex gap-2">
                {licence.status !== 'revoked' && (
                  <SwitchButton licence={licence} onAsk={(action) => setAsked({ action, licence })} />
                )}
                <button
                  type="button"
                  className="btn btn-sm btn-outline-secondary"
                  disabled={licence.activation_usage === 0}
                  onClick={() => setAsked({ action: 'reset-activations', licence })}
                  aria-label={`Reset Activations of ${licence.kit_title} key`}
                >
                  Reset Activations
                </button>
              </div>
            ),
          },
        ]}
      />
      <ConfirmDialog
        show={asked !== null}
        title={asked ? ACTIONS[asked.action].title : ''}
        confirmLabel={asked ? ACTIONS[asked.action].label : ''}
        variant={asked ? ACTIONS[asked.action].variant : 'primary'}
        busy={change.isPending}
        error={change.isError ? errorText(change.error, 'The key could not be changed.') : null}
        onConfirm={confirm}
        onClose={close}
      >
        <p className="mb-0">{asked && explain(asked.action, asked.licence)}</p>
      </ConfirmDialog>
    </div>
  );
}
