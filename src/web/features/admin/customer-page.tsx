import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useCustomer, useKits } from './admin-api.ts';
import { type GrantChange, GrantDialog } from './customer-grant-dialog.tsx';
import { CustomerFacts, CustomerHistory, OwnedKits, SignOutEverywhere } from './customer-parts.tsx';
import { recordId } from './format.ts';
import { TeamSeats } from './team-seats.tsx';
import { PageHeader, QueryState } from './ui.tsx';

export default function CustomerPage() {
  const id = recordId(useLocation().pathname);
  const customer = useCustomer(id);
  const data = customer.data;
  const kits = useKits();
  const [change, setChange] = useState<GrantChange | null>(null);
  const titleOf = (kit: number) => kits.data?.find((k) => k.id === kit)?.title ?? `Kit ${kit}`;

  return (
    <>
      <p className="mb-2">
        <Link to="/admin/customers">← Customers</Link>
      </p>
      <PageHeader title={data ? data.name || data.email : 'Customer'}>
        {data && <SignOutEverywhere customerId={data.id} email={data.email} />}
        {data && (
          <button type="button" className="btn btn-primary" onClick={() => setChange({ action: 'grant' })}>
            Grant Kit
          </button>
        )}
      </PageHeader>
      <QueryState query={customer} label="the customer" />
      {data && (
        <>
          <CustomerFacts customer={data} />
          <OwnedKits kits={data.kits} onRevoke={(kit) => setChange({ action: 'revoke', ...kit })} />
          <TeamSeats teams={data.teams} />
          <CustomerHistory customer={data} titleOf={titleOf} />
          <GrantDialog customer={data} kits={kits.data} change={change} onClose={() => setChange(null)} />
        </>
      )}
    </>
  );
}
