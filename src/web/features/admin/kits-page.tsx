import { useState } from 'react';
import { Link } from 'react-router';
import type { OwnerKit } from '../../../common/schemas/owner.ts';
import { useToast } from '../../components/toasts.tsx';
import { useKitSwitch, useKits } from './admin-api.ts';
import { CardTable, countColumn, moneyColumn } from './data-table.tsx';
import { count, day } from './format.ts';
import { ConfirmDialog, EmptyState, errorText, PageHeader, QueryState } from './ui.tsx';

export default function KitsPage() {
  const kits = useKits();
  const change = useKitSwitch();
  const toast = useToast();
  const [target, setTarget] = useState<OwnerKit | null>(null);

  const close = () => {
    setTarget(null);
    change.reset();
  };
  const submit = () => {
    if (!target) return;
    const active = !target.active;
    change.mutate(
      { id: target.id, active },
      {
        onSuccess: (kit) => {
          setTarget(null);
          toast({
            title: active ? 'Kit shown' : 'Kit hidden',
            body: active ? `${kit.title} is back in the store.` : `${kit.title} is off the store; its owners keep it.`,
          });
        },
      },
    );
  };

  return (
    <>
      <PageHeader title="Kits">
        <Link className="btn btn-primary" to="/admin/kits/new">
          New Kit
        </Link>
      </PageHeader>
      <QueryState query={kits} label="kits" />
      {kits.data && kits.data.length === 0 && <EmptyState>No kits in the catalog.</EmptyState>}
      {kits.data && kits.data.length > 0 && (
        <CardTable
          rows={kits.data}
          rowKey={(kit) => kit.id}
          rowClassName={(kit) => (kit.active ? undefined : 'admin-row-muted')}
          columns={[
            {
              header: 'Kit',
              cell: (kit) => (
                <>
                  <Link to={`/admin/kits/${kit.sef_id}`} className="admin-target">
                    {kit.title}
                  </Link>
                  <div className="small text-body-secondary">
                    {kit.active ? (
                      <Link to={`/product/${kit.sef_id}`} className="admin-target">
                        {kit.sef_id}
                      </Link>
                    ) : (
                      kit.sef_id
                    )}
                  </div>
                </>
              ),
            },
            moneyColumn('Price', 'price'),
            {
              header: 'Version',
              className: 'text-nowrap',
              cell: (kit) => (
                <>
                  {kit.version ?? '—'}
                  <div className="small text-body-secondary">{day(kit.released_on)}</div>
                </>
              ),
            },
            countColumn('Units', 'units'),
            moneyColumn('Gross', 'gross'),
            countColumn('Downloads', 'downloads'),
            countColumn('Owners', 'owners'),
            {
              header: 'In store',
              className: 'text-nowrap',
              cell: (kit) => (
                <>
                  <span className={`badge me-2 ${kit.active ? 'text-bg-success' : 'text-bg-secondary'}`}>
                    {kit.active ? 'Shown' : 'Hidden'}
                  </span>
                  <button
                    type="button"
                    className={`btn btn-sm ${kit.active ? 'btn-outline-secondary' : 'btn-outline-success'}`}
                    aria-label={`${kit.active ? 'Hide' : 'Show'} ${kit.title}`}
                    onClick={() => setTarget(kit)}
                  >
                    {kit.active ? 'Hide' : 'Show'}
                  </button>
                </>
              ),
            },
          ]}
        />
      )}
      <ConfirmDialog
        show={target !== null}
        title={target?.active ? `Hide ${target?.title}` : `Show ${target?.title}`}
        confirmLabel={target?.active ? 'Hide kit' : 'Show kit'}
        variant={target?.active ? 'warning' : 'success'}
        busy={change.isPending}
        error={change.isError ? errorText(change.error, 'The change failed.') : null}
        onConfirm={submit}
        onClose={close}
      >
        {target?.active ? (
          <p className="mb-0">
            The kit leaves the home page, its product page answers “not found” and carts refuse it. Its{' '}
            {count(target.owners)} owners keep their downloads.
          </p>
        ) : (
          <p className="mb-0">The kit comes back to the home page and can be bought again.</p>
        )}
      </ConfirmDialog>
    </>
  );
}
