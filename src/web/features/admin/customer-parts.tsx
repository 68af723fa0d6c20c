import { useState } from 'react';
import type { OwnerCustomerDetail } from '../../../common/schemas/owner.ts';
import { useToast } from '../../components/toasts.tsx';
import { useSignOutCustomer } from './admin-api.ts';
import {
  CardTable,
  type Column,
  moneyColumn,
  OrderLink,
  orderColumn,
  statusColumn,
  timeColumn,
} from './data-table.tsx';
import { count, dateTime, money } from './format.ts';
import { ConfirmDialog, errorText, Facts } from './ui.tsx';

/** The customer page's parts: the account, the kits owned, orders and downloads, signing out. */

type Row<K extends keyof OwnerCustomerDetail> = OwnerCustomerDetail[K] extends (infer R)[] ? R : never;

const ORDER_COLUMNS: Column<Row<'order_list'>>[] = [
  orderColumn(),
  timeColumn('Date', 'created_at'),
  moneyColumn('Total', 'total'),
  statusColumn,
];

export function CustomerFacts({ customer }: { customer: OwnerCustomerDetail }) {
  return (
    <section className="card admin-card mb-4">
      <Facts
        wide
        facts={[
          [
            'E-mail',
            <>
              {customer.email}{' '}
              {customer.verified ? (
                <span className="badge text-bg-success">Verified</span>
              ) : (
                <span className="badge text-bg-warning">Not verified</span>
              )}
            </>,
            'text-break',
          ],
          ['Signed up', dateTime(customer.created_at)],
          ['Last sign-in', dateTime(customer.last_sign_in)],
          ['Orders', count(customer.orders)],
          ['Spent', money(customer.spent)],
        ]}
      />
    </section>
  );
}

/** The kits the customer owns and how (an order or a grant), each with its Revoke button. */
export function OwnedKits({
  kits,
  onRevoke,
}: {
  kits: OwnerCustomerDetail['kits'];
  onRevoke: (kit: { kitId: number; title: string }) => void;
}) {
  return (
    <div className="mb-4">
      <CardTable
        title="Kits owned"
        rows={kits}
        empty="This customer owns no kit."
        rowKey={(kit) => kit.kit_id}
        columns={[
          { header: 'Kit', cell: (kit) => kit.title },
          {
            header: 'How',
            cell: (kit) =>
              kit.source === 'seat' && kit.order_id ? (
                <>
                  Seat of order <OrderLink id={kit.order_id} />
                </>
              ) : kit.source === 'order' && kit.order_id ? (
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
            // A seat is freed on its Team order's page, not revoked here.
            cell: (kit) =>
              kit.source !== 'seat' && (
                <button
                  type="button"
                  className="btn btn-sm btn-outline-danger"
                  aria-label={`Revoke ${kit.title}`}
                  onClick={() => onRevoke({ kitId: kit.kit_id, title: kit.title })}
                >
                  Revoke
                </button>
              ),
          },
        ]}
      />
    </div>
  );
}

/** The customer's orders, downloads and any GitHub access that failed. */
export function CustomerHistory({
  customer,
  titleOf,
}: {
  customer: OwnerCustomerDetail;
  titleOf: (kitId: number) => string;
}) {
  return (
    <>
      <div className="row g-4">
        <div className="col-12 col-xl-7">
          <CardTable
            title="Orders"
            rows={customer.order_list}
            empty="No orders."
            small
            rowKey={(order) => order.id}
            columns={ORDER_COLUMNS}
          />
        </div>
        <div className="col-12 col-xl-5">
          <CardTable
            title="Downloads"
            rows={customer.downloads}
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

      {customer.repository_failures.length > 0 && (
        <div className="mt-4">
          <CardTable
            title="GitHub access that failed"
            rows={customer.repository_failures}
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
    </>
  );
}

/** `Sign Out Everywhere`: ends every session of the customer (a lost device, say), after a confirmation. */
export function SignOutEverywhere({ customerId, email }: { customerId: number; email: string }) {
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
