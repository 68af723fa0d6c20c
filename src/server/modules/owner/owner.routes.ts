import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OWNER_SETUP_MESSAGE, OWNER_STEP_UP_MESSAGE } from '../../../common/schemas/account-security.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import type { Storage } from '../../integrations/storage/storage.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { ownerSessionGate } from '../accounts/two-step.service.ts';
import type { Catalog } from '../catalog/catalog.service.ts';
import {
  paddleRefundCall,
  type RefundCall,
  type SandboxWebhook,
  sandboxRefundCall,
} from '../orders/refunds.service.ts';
import { registerCustomerRoutes } from './owner.customers.routes.ts';
import { registerDiscountRoutes } from './owner.discounts.routes.ts';
import { registerKitEditorRoutes } from './owner.kit-editor.routes.ts';
import { registerKitVersionRoutes } from './owner.kit-versions.routes.ts';
import { registerKitRoutes } from './owner.kits.routes.ts';
import { registerOwnerLicenceRoutes } from './owner.licences.routes.ts';
import { registerMessageRoutes } from './owner.messages.routes.ts';
import { registerOwnerOrderRoutes } from './owner.orders.routes.ts';
import { findOwner, type Owner } from './owner.service.ts';
import { registerSubscriberRoutes } from './owner.subscribers.routes.ts';
import { registerSummaryRoutes } from './owner.summary.routes.ts';

export type OwnerDeps = {
  db: Database;
  config: Config;
  catalog: Catalog;
  /** Kit archives (published versions) and screenshots (the kit editor's uploads). */
  storage: Storage;
  mailQueued: () => void;
  /** Called after repository grants or revokes were queued (GitHub delivery on), so they start now. */
  githubQueued?: () => void;
  /** The sandbox's signed webhook delivery (absent with Paddle), so its refunds take the real path. */
  sandboxWebhook?: SandboxWebhook;
  /** Seals the licence keys that grants issue. */
  licenceBox: SecretBox;
};

const owners = new WeakMap<FastifyRequest, Owner>();
const ownerOf = (request: FastifyRequest) => owners.get(request)!;

/**
 * The owner console's API under /api/admin: one guard for every call, then each resource's routes,
 * each handed only what it uses.
 */
export function registerOwnerRoutes(app: FastifyInstance, deps: OwnerDeps): void {
  const { db, config } = deps;
  const paddle = config.paymentProvider === 'paddle';
  const refundCall: RefundCall = paddle
    ? paddleRefundCall(config.paddle)
    : deps.sandboxWebhook
      ? sandboxRefundCall(deps.sandboxWebhook)
      : async () => ({});

  app.register(
    async (scope) => {
      // Every call: signed in (401), an owner (403). Checked before the input is validated.
      scope.addHook('preValidation', async (request) => {
        const user = await request.user();
        if (!user) throw new AppError('unauthorized', 'Please sign in to continue.');
        const owner = await findOwner(db, config, user.id);
        if (!owner) throw new AppError('forbidden', 'This is for the shop’s owners.');
        // The session, not the account, must have proved more than a password.
        const gate = await ownerSessionGate(db, config.production, user.id, request.sessionToken());
        if (gate === 'step_up') throw new AppError('forbidden', OWNER_STEP_UP_MESSAGE);
        if (gate === 'setup') throw new AppError('forbidden', OWNER_SETUP_MESSAGE);
        owners.set(request, owner);
      });
      scope.addHook('onSend', async (_request, reply, payload) => {
        reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
        return payload;
      });

      scope.get('/me', async (request) => ownerOf(request));

      registerSummaryRoutes(scope, { db });
      registerOwnerLicenceRoutes(scope, { db, ownerOf });
      registerOwnerOrderRoutes(scope, {
        db,
        mail: config,
        ownerOf,
        mailQueued: deps.mailQueued,
        refundCall,
        refundsApprovedLater: paddle,
        githubQueued: deps.githubQueued,
        invoices: { db, config },
      });
      registerCustomerRoutes(scope, {
        db,
        ownerOf,
        mail: config,
        mailQueued: deps.mailQueued,
        githubQueued: deps.githubQueued,
        licenceBox: deps.licenceBox,
      });
      registerKitRoutes(scope, { db, ownerOf, catalogChanged: () => deps.catalog.invalidate() });
      registerKitVersionRoutes(scope, {
        db,
        storage: deps.storage,
        mail: config,
        ownerOf,
        mailQueued: deps.mailQueued,
        catalogChanged: () => deps.catalog.invalidate(),
        github: config.github && { apiUrl: config.github.apiUrl, token: config.github.token },
      });
      registerKitEditorRoutes(scope, {
        db,
        config,
        storage: deps.storage,
        ownerOf,
        catalogChanged: () => deps.catalog.invalidate(),
      });
      registerDiscountRoutes(scope, { db, config, ownerOf });
      registerMessageRoutes(scope, { db, mail: config, ownerOf, mailQueued: deps.mailQueued });
      registerSubscriberRoutes(scope, { db });
    },
    { prefix: '/api/admin' },
  );
}
