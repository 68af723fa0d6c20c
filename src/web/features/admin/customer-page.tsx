import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { OwnerCustomerDetail } from '../../../common/schemas/owner.ts';
import { useToast } from '../../components/toasts.tsx';
import { useCustomer, useGrant, useKits, useSignOutCustomer } from './admin-api.ts';
import {
  CardTable,
  type Column,
  moneyColumn,
  OrderLink,
  orderColumn,
  statusColumn,
  timeColumn,
} from './data-table.tsx';
import { count, dateTime, money, recordId } from './format.ts';
import { ConfirmDialog, errorText, Facts, PageHeader, QueryState, TextArea } from './ui.tsx';

type Row<K extends keyof OwnerCustomerDetail> = OwnerCustomerDetail[K] extends (infer R)[] ? R : never;

const ORDER_COLUMNS: Column<Row<'order_list'>>[] = [
  orderColumn(),
  timeColumn('Date', 'created_at'),
  moneyColumn('Total', 'total'),
  statusColumn,
];

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
  const noteState = useState('');
  const [note, setNote] = noteState;

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
        {data && <SignOutEverywhere customerId={data.id} email={data.email} />}
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
            <Facts
              wide
              facts={[
                [
                  'E-mail',
                  <>
                    {data.email}{' '}
                    {data.verified ? (
                      <span className="badge text-bg-success">Verified</span>
                    ) : (
                      <span className="badge text-bg-warning">Not verified</span>
                    )}
                  </>,
                  'text-break',
                ],
                ['Signed up', dateTime(data.created_at)],
                ['Last sign-in', dateTime(data.last_sign_in)],
                ['Orders', count(data.orders)],
                ['Spent', money(data.spent)],
              ]}
            />
          </section>

          <div className="mb-4">
            <CardTable
              title="Kits owned"
              rows={data.kits}
              empty="This customer owns no kit."
              rowKey={(kit) => kit.kit_id}
              columns={[
                { header: 'Kit', cell: (kit) => kit.title },
                {
                  header: 'How',
                  cell: (kit) =>
                    kit.source === 'order' && kit.order_id ? (
                      <>
                        Order <OrderLink id={kit.order_id} />
                      </>
                    ) : (
                      <>Granted {dateTime(kit.granted_at)}</>
                    ),
                },
                {
                  header: null,
                  className: 'text-end',
                  cell: (kit) => (
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
                  ),
                },
              ]}
            />
          </div>

          <div className="row g-4">
            <div className="col-12 col-xl-7">
              <CardTable
                title="Orders"
                rows={data.order_list}
                empty="No orders."
                small
                rowKey={(order) => order.id}
                columns={ORDER_COLUMNS}
              />
            </div>
            <div className="col-12 col-xl-5">
              <CardTable
                title="Downloads"
                rows={data.downloads}
                empty="No downloads yet."
                small
                rowKey={(download) => `${download.at}|${download.kit_id}`}
                columns={[
                  { header: 'Kit', cell: (download) => titleOf(download.kit_id) },
                  { header: 'Version', cell: (download) => download.version ?? '—' },
                  timeColumn('When', 'at'),
                ]}
              />
            </div>
          </div>

          {data.repository_failures.length > 0 && (
            <div className="mt-4">
              <CardTable
                title="GitHub access that failed"
                rows={data.repository_failures}
                empty=""
                small
                rowKey={(failure) => `${failure.at}|${failure.repository}|${failure.action}`}
                columns={[
                  { header: 'Action', cell: (failure) => failure.action },
                  { header: 'Repository', cell: (failure) => `${failure.repository} (@${failure.login})` },
                  { header: 'GitHub answered', cell: (failure) => failure.error },
                  timeColumn('When', 'at'),
                ]}
              />
            </div>
          )}

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
            <TextArea id="grant-note" label="Note" state={noteState} hint="Kept in the activity log." />
          </ConfirmDialog>
        </>
      )}
    </>
  );
}

/** `Sign Out Everywhere`: ends every session of the customer (a lost device, say), after a confirmation. */
function SignOutEverywhere({ customerId, email }: { customerId: number; email: string }) {
  const signOut = useSignOutCustomer(customerId);
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const close = () => {
    setOpen(false);
    signOut.reset();
  };
  return (
    <>
      <button type="button" className="btn btn-outline-danger" onClick={() => setOpen(true)}>
        Sign Out Everywhere
      </button>
      <ConfirmDialog
        show={open}
        title="Sign out everywhere"
        confirmLabel="Sign Out Everywhere"
        variant="danger"
        busy={signOut.isPending}
        error={signOut.isError ? errorText(signOut.error, 'The sign-out failed.') : null}
        onConfirm={() =>
          signOut.mutate(undefined, {
            onSuccess: ({ ended }) => {
              setOpen(false);
              toast({
                title: 'Signed out everywhere',
                body: `${ended} ${ended === 1 ? 'session' : 'sessions'} of ${email} ended.`,
              });
            },
          })
        }
        onClose={close}
      >
        <p>
          Every device signed in as {email} is signed out at once. The customer can sign in again with their password, a
          passkey or Google.
        </p>
      </ConfirmDialog>
    </>
  );
}
