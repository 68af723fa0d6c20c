import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useToast } from '../../components/toasts.tsx';
import { useCustomer, useGrant, useKits } from './admin-api.ts';
import { count, dateTime, money, type OrderStatus, recordId } from './format.ts';
import { ConfirmDialog, EmptyState, errorText, PageHeader, QueryState, StatusBadge, TableCard } from './ui.tsx';

type Dialog = null | { action: 'grant' } | { action: 'revoke'; kitId: number; title: string };

export default function CustomerPage() {
  const id = recordId(useLocation().pathname);
  const customer = useCustomer(id);
  const data = customer.data;
  const kits = useKits();
  const change = useGrant(data?.id ?? 0);
  const toast = useToast();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [kitId, setKitId] = useState('');
  const [note, setNote] = useState('');

  const owned = new Set(data?.kits.map((k) => k.kit_id));
  const grantable = kits.data?.filter((k) => !owned.has(k.id)) ?? [];
  const titleOf = (kit: number) => kits.data?.find((k) => k.id === kit)?.title ?? `Kit ${kit}`;

  const close = () => {
    setDialog(null);
    change.reset();
  };
  const submit = () => {
    if (!dialog) return;
    const kit = dialog.action === 'grant' ? Number(kitId) : dialog.kitId;
    const title = dialog.action === 'grant' ? titleOf(kit) : dialog.title;
    change.mutate(
      { action: dialog.action, kit_id: kit, note: note.trim() },
      {
        onSuccess: () => {
          setDialog(null);
          toast({
            title: dialog.action === 'grant' ? 'Kit granted' : 'Kit revoked',
            body:
              dialog.action === 'grant'
                ? `${data?.email} can download ${title} now.`
                : `${data?.email} can no longer download ${title}.`,
          });
        },
      },
    );
  };

  return (
    <>
      <p className="mb-2">
        <Link to="/admin/customers">← Customers</Link>
      </p>
      <PageHeader title={data ? data.name || data.email : 'Customer'}>
        {data && (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              setKitId('');
              setNote('');
              setDialog({ action: 'grant' });
            }}
          >
            Grant Kit
          </button>
        )}
      </PageHeader>
      <QueryState query={customer} label="the customer" />
      {data && (
        <>
          <section className="card admin-card mb-4">
            <dl className="card-body admin-facts admin-facts-wide mb-0">
              <dt>E-mail</dt>
              <dd className="text-break">
                {data.email}{' '}
                {data.verified ? (
                  <span className="badge text-bg-success">Verified</span>
                ) : (
                  <span className="badge text-bg-warning">Not verified</span>
                )}
              </dd>
              <dt>Signed up</dt>
              <dd>{dateTime(data.created_at)}</dd>
              <dt>Last sign-in</dt>
              <dd>{dateTime(data.last_sign_in)}</dd>
              <dt>Orders</dt>
              <dd>{count(data.orders)}</dd>
              <dt>Spent</dt>
              <dd>{money(data.spent)}</dd>
            </dl>
          </section>

          <div className="mb-4">
            <TableCard title="Kits owned">
              {data.kits.length === 0 ? (
                <EmptyState>This customer owns no kit.</EmptyState>
              ) : (
                <table className="table admin-table mb-0">
                  <thead>
                    <tr>
                      <th scope="col">Kit</th>
                      <th scope="col">How</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.kits.map((kit) => (
                      <tr key={kit.kit_id}>
                        <td>{kit.title}</td>
                        <td>
                          {kit.source === 'order' && kit.order_id ? (
                            <>
                              Order <Link to={`/admin/orders/${encodeURIComponent(kit.order_id)}`}>{kit.order_id}</Link>
                            </>
                          ) : (
                            <>Granted {dateTime(kit.granted_at)}</>
                          )}
                        </td>
                        <td className="text-end">
                          <button
                            type="button"
                            className="btn btn-sm btn-outline-danger"
                            aria-label={`Revoke ${kit.title}`}
                            onClick={() => {
                              setNote('');
                              setDialog({ action: 'revoke', kitId: kit.kit_id, title: kit.title });
                            }}
                          >
                            Revoke
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </TableCard>
          </div>

          <div className="row g-4">
            <div className="col-12 col-xl-7">
              <TableCard title="Orders">
                {data.order_list.length === 0 && <EmptyState>No orders.</EmptyState>}
                {data.order_list.length > 0 && (
                  <table className="table table-sm admin-table mb-0">
                    <thead>
                      <tr>
                        <th scope="col">Order</th>
                        <th scope="col">Date</th>
                        <th scope="col" className="text-end">
                          Total
                        </th>
                        <th scope="col">Status</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.order_list.map((order) => (
                        <tr key={order.id}>
                          <td>
                            <Link to={`/admin/orders/${encodeURIComponent(order.id)}`}>{order.id}</Link>
                          </td>
                          <td className="text-nowrap">{dateTime(order.created_at)}</td>
                          <td className="text-end">{money(order.total)}</td>
                          <td>
                            <StatusBadge status={order.status as OrderStatus} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </TableCard>
            </div>
            <div className="col-12 col-xl-5">
              <TableCard title="Downloads">
                {data.downloads.length === 0 ? (
                  <EmptyState>No downloads yet.</EmptyState>
                ) : (
                  <table className="table table-sm admin-table mb-0">
                    <thead>
                      <tr>
                        <th scope="col">Kit</th>
                        <th scope="col">Version</th>
                        <th scope="col">When</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.downloads.map((download) => (
                        <tr key={`${download.at}|${download.kit_id}`}>
                          <td>{titleOf(download.kit_id)}</td>
                          <td>{download.version ?? '—'}</td>
                          <td className="text-nowrap">{dateTime(download.at)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </TableCard>
            </div>
          </div>

          <ConfirmDialog
            show={dialog !== null}
            title={dialog?.action === 'revoke' ? `Revoke ${dialog.title}` : 'Grant a kit'}
            confirmLabel={dialog?.action === 'revoke' ? 'Revoke' : 'Grant Kit'}
            variant={dialog?.action === 'revoke' ? 'danger' : 'primary'}
            busy={change.isPending}
            error={change.isError ? errorText(change.error, 'The change failed.') : null}
            disabled={dialog?.action === 'grant' && !kitId}
            onConfirm={submit}
            onClose={close}
          >
            {dialog?.action === 'grant' ? (
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
                {data.email} will no longer see or download <strong>{dialog?.title}</strong>.
              </p>
            )}
            <label htmlFor="grant-note" className="form-label">
              Note
            </label>
            <textarea
              id="grant-note"
              className="form-control"
              rows={2}
              maxLength={500}
              value={note}
              onChange={(e) => setNote(e.target.value)}
            />
            <p className="form-text mb-0">Kept in the activity log.</p>
          </ConfirmDialog>
        </>
      )}
    </>
  );
}
