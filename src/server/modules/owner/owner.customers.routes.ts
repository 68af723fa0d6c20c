import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  CustomersQuerySchema,
  GrantSchema,
  type OwnerCustomer,
  type OwnerCustomerDetail,
} from '../../../common/schemas/owner.ts';
import type { Database } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import type { MailContext } from '../../integrations/mail/templates.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { accountOf, listAccounts } from '../accounts/accounts.owner.service.ts';
import { endAllSessions } from '../accounts/sessions.service.ts';
import { allKits, kitById } from '../catalog/catalog.owner.service.ts';
import { failedRepositoryJobs } from '../github/github.service.ts';
import { changeCustomerGrant, downloadsOf, holdingsOf } from '../library/library.owner.service.ts';
import { issueLicenceKeys } from '../licences/licences.service.ts';
import { buyerTotals, ordersOfBuyer, paidLinesOf } from '../orders/orders.owner.service.ts';
import { seatOrdersOf, teamsOf } from '../orders/seats.owner.service.ts';
import { decodeCursor, idParams, iso, nextCursor, type OwnerOf } from './owner.params.ts';
import { recordActivity } from './owner.service.ts';

const customerAnswer = (
  account: NonNullable<Awaited<ReturnType<typeof accountOf>>>,
  totals: { orders: number; spent: number } | undefined,
): OwnerCustomer => ({
  id: account.id,
  email: account.email,
  name: account.name,
  created_at: iso(account.created_at)!,
  verified: account.verified,
  orders: totals?.orders ?? 0,
  spent: totals?.spent ?? 0,
  last_sign_in: iso(account.last_sign_in),
});

/**
 * The customers: list, one customer with what they own and how, kits granted and revoked, every
 * session ended (inside the owner scope). Each change is written to the activity log in its transaction.
 */
export function registerCustomerRoutes(
  scope: FastifyInstance,
  deps: {
    db: Database;
    ownerOf: OwnerOf;
    mail: MailContext;
    mailQueued: () => void;
    /** Seals the licence key a grant issues. */
    licenceBox: SecretBox;
    /** Called after repository grants or revokes were queued (GitHub delivery on), so they start now. */
    githubQueued?: () => void;
  },
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { db, ownerOf } = deps;

  async function customerDetail(id: number): Promise<OwnerCustomerDetail> {
    const account = await accountOf(db, id);
    if (!account) throw new AppError('not_found', `No customer ${id}.`);
    const [totals, holdings, paid, downloads, orderList, kits, repositoryFailures, teams, seatOrders] =
      await Promise.all([
        buyerTotals(db, [id]),
        holdingsOf(db, id),
        paidLinesOf(db, id),
        downloadsOf(db, id),
        ordersOfBuyer(db, id),
        allKits(db),
        failedRepositoryJobs(db, id),
        teamsOf(db, { buyerId: id }),
        seatOrdersOf(db, id),
      ]);
    const titles = new Map(kits.map((k) => [k.id, k.title]));
    const covered = new Set<number>();
    const owned: OwnerCustomerDetail['kits'] = [];
    for (const line of paid) {
      covered.add(line.kit_id);
      owned.push({
        kit_id: line.kit_id,
        title: titles.get(line.kit_id) ?? line.title,
        source: 'order',
        order_id: line.order_id,
        granted_at: iso(line.paid_at)!,
      });
    }
    for (const grant of holdings.grants) {
      covered.add(grant.kit_id);
      owned.push({
        kit_id: grant.kit_id,
        title: titles.get(grant.kit_id) ?? '',
        source: 'grant',
        order_id: null,
        granted_at: iso(grant.granted_at)!,
      });
    }
    // Kits owned from before grants were recorded apart (a manual entitlement), and seats of Team licences.
    for (const e of holdings.owned.filter((o) => !covered.has(o.kit_id))) {
      const seatOrder = seatOrders.get(e.source);
      owned.push({
        kit_id: e.kit_id,
        title: titles.get(e.kit_id) ?? '',
        source: seatOrder ? 'seat' : e.source === 'grant' ? 'grant' : 'order',
        order_id: seatOrder ?? (e.source === 'grant' ? null : e.source),
        granted_at: iso(e.granted_at)!,
      });
    }
    owned.sort((a, b) => a.granted_at.localeCompare(b.granted_at) || a.kit_id - b.kit_id);
    return {
      ...customerAnswer(account, totals.get(id)),
      kits: owned,
      downloads: downloads.map((d) => ({ ...d, at: iso(d.at)! })),
      order_list: orderList.map((o) => ({ ...o, created_at: iso(o.created_at)! })),
      teams,
      repository_failures: repositoryFailures.map((f) => ({
        action: f.action,
        repository: f.repository,
        login: f.login,
        error: f.last_error ?? '',
        at: iso(f.at)!,
      })),
    };
  }

  app.get('/customers', { schema: { querystring: CustomersQuerySchema } }, async (request) => {
    const input = request.query;
    const rows = await listAccounts(db, {
      query: input.query || undefined,
      after: decodeCursor(input.cursor),
      limit: input.limit,
    });
    const totals = await buyerTotals(
      db,
      rows.map((r) => r.id),
    );
    return {
      items: rows.map((r) => customerAnswer(r, totals.get(r.id))),
      next_cursor: nextCursor(rows, input.limit),
    };
  });

  const customerPath = { schema: { params: idParams('customer') } };
  app.get('/customers/:id', customerPath, async (request) => customerDetail(request.params.id));

  const changeGrant = async (
    kind: 'grant' | 'revoke',
    request: FastifyRequest,
    id: number,
    input: z.output<typeof GrantSchema>,
  ) => {
    const owner = ownerOf(request);
    const githubJobs = await db.transaction(async (tx) => {
      const account = await accountOf(tx, id);
      if (!account) throw new AppError('not_found', `No customer ${id}.`);
      const kit = await kitById(tx, input.kit_id);
      if (!kit) throw new AppError('invalid_data', `kit_id: no kit ${input.kit_id}.`);
      const queued = await changeCustomerGrant(
        tx,
        { kind, customer: account, kit, note: input.note, by: owner.id },
        deps.mail,
      );
      if (kind === 'grant') await issueLicenceKeys(tx, deps.licenceBox, [{ userId: id, kitId: kit.id }]);
      await recordActivity(tx, owner, {
        action: kind === 'grant' ? 'grant kit' : 'revoke kit',
        target: `customer ${id}`,
        detail: `${kit.title} ${kind === 'grant' ? 'to' : 'from'} ${account.email}${input.note ? `: ${input.note}` : ''}`,
      });
      return queued;
    });
    deps.mailQueued();
    if (githubJobs > 0) deps.githubQueued?.();
    return customerDetail(id);
  };
  const grantOptions = { schema: { params: idParams('customer'), body: GrantSchema } };
  app.post('/customers/:id/grant', grantOptions, (request) =>
    changeGrant('grant', request, request.params.id, request.body),
  );
  app.post('/customers/:id/revoke', grantOptions, (request) =>
    changeGrant('revoke', request, request.params.id, request.body),
  );

  // A customer's every session ends at once (a stolen device, a shared computer): their next call is 401.
  app.post('/customers/:id/sign-out', customerPath, async (request) => {
    const { id } = request.params;
    const owner = ownerOf(request);
    const ended = await db.transaction(async (tx) => {
      const account = await accountOf(tx, id);
      if (!account) throw new AppError('not_found', `No customer ${id}.`);
      const count = await endAllSessions(tx, id);
      await recordActivity(tx, owner, {
        action: 'sign out customer',
        target: `customer ${id}`,
        detail: `${count} ${count === 1 ? 'session' : 'sessions'} of ${account.email}`,
      });
      return count;
    });
    return { ended };
  });
}
