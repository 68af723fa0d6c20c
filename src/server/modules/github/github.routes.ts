import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { GithubResponse } from '../../../common/schemas/github.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/open.ts';
import { requireUser } from '../../http/session.ts';
import type { GithubOAuth, GithubRepositories } from '../../integrations/github/github.ts';
import {
  connectGithub,
  disconnectGithub,
  followGithubRename,
  githubAccountOf,
  markJoined,
  repositoryAccess,
  saveOauthState,
  takeOauthState,
} from './github.service.ts';

type Deps = {
  db: Database;
  config: Config;
  oauth: GithubOAuth;
  repositories: GithubRepositories;
  /** Called after jobs were queued, so this instance's worker starts them now. */
  jobsQueued: () => void;
};

/** Where the buyer may come back to: the panel, or one of its item pages. */
const RETURN_PATH = /^user-panel(?:\/item\/[a-z0-9]+(?:-[a-z0-9]+)*)?$/;
const INVITED_CHECK_MS = 3000;

/**
 * Connecting a GitHub account (OAuth web flow: state bound to the session, single use, PKCE), the
 * buyer's view of their repository access, and disconnecting.
 */
export function registerGithubRoutes(app: FastifyInstance, deps: Deps): void {
  const { db, config, oauth, repositories } = deps;
  const { basePath } = config;
  const webUrl = config.github!.webUrl;

  /** The promise's answer, or `late` should it take longer than INVITED_CHECK_MS. */
  const inTime = <T>(work: Promise<T>, late: T): Promise<T> =>
    Promise.race([work, new Promise<T>((resolve) => setTimeout(() => resolve(late), INVITED_CHECK_MS).unref())]);

  /**
   * The access as stored, after asking GitHub whether invitations were accepted meanwhile: under the
   * account's login of now, looked up by its id (the stored one may have been renamed away, and
   * taken by someone else).
   */
  const currentAccess = async (userId: number, log: FastifyInstance['log']): Promise<GithubResponse> => {
    const access = await repositoryAccess(db, userId, webUrl);
    const invited = access.repositories.filter((r) => r.status === 'invited');
    const account = invited.length > 0 ? await githubAccountOf(db, userId) : undefined;
    if (!account) return access;
    let login: string | undefined;
    try {
      login = await inTime(repositories.login(account.githubId), undefined);
    } catch (error) {
      log.warn({ err: error }, `github: could not look up account #${account.githubId}`);
    }
    if (login === undefined) return access;
    if (login !== account.login) await followGithubRename(db, account.githubId, login);
    const joined = await Promise.all(
      invited.map(async (r) => {
        try {
          return (await inTime(repositories.isCollaborator(r.name, login), false)) ? r.name : undefined;
        } catch (error) {
          log.warn({ err: error }, `github: could not check ${r.name} for ${login}`);
          return undefined;
        }
      }),
    );
    const names = joined.filter((n): n is string => n !== undefined);
    if (names.length === 0 && login === account.login) return access;
    await markJoined(db, userId, names);
    return repositoryAccess(db, userId, webUrl);
  };

  app.post('/api/github', async (request) => {
    const user = await requireUser(request);
    return currentAccess(user.id, request.log);
  });

  app.post('/api/github/disconnect', async (request) => {
    const user = await requireUser(request);
    await db.transaction((tx) => disconnectGithub(tx, user.id));
    deps.jobsQueued();
    return repositoryAccess(db, user.id, webUrl);
  });

  // A link in the panel: signed out, the buyer signs in first and comes back to the panel.
  app.get('/github/connect', async (request, reply) => {
    const raw = (request.query as { returnPath?: unknown }).returnPath;
    const returnPath = typeof raw === 'string' && RETURN_PATH.test(raw) ? raw : 'user-panel';
    const user = await request.user();
    const token = request.sessionToken();
    if (!user || !token) return reply.redirect(`${basePath}/login`);
    const state = randomBytes(32).toString('base64url');
    const start = oauth.start(state);
    await saveOauthState(db, {
      state,
      sessionToken: token,
      userId: user.id,
      codeVerifier: start.codeVerifier,
      returnPath,
    });
    return reply.header('cache-control', 'no-store').redirect(start.url);
  });

  app.get('/github/callback', async (request, reply) => {
    const query = request.query as { code?: unknown; state?: unknown; error?: unknown };
    const back = (returnPath: string, outcome: string) =>
      reply.header('cache-control', 'no-store').redirect(`${basePath}/${returnPath}?github=${outcome}`);
    const user = await request.user();
    const token = request.sessionToken();
    if (!user || !token) return reply.redirect(`${basePath}/login`);
    const state = typeof query.state === 'string' && query.state.length <= 200 ? query.state : undefined;
    // Taken (deleted) whatever follows: a state is good for one callback.
    const saved = state ? await takeOauthState(db, state, token, user.id) : undefined;
    if (!saved) {
      request.log.warn('github: callback with a missing, unknown, reused or foreign state refused');
      return back('user-panel', 'state');
    }
    if (query.error !== undefined || typeof query.code !== 'string' || query.code.length > 200)
      return back(saved.returnPath, 'denied');
    let identity: { id: number; login: string };
    try {
      identity = await oauth.finish(query.code, saved.codeVerifier);
    } catch (error) {
      request.log.warn({ err: error }, 'github: connection did not complete');
      return back(saved.returnPath, 'failed');
    }
    const outcome = await connectGithub(db, user.id, identity);
    if (outcome === 'connected') deps.jobsQueued();
    return back(saved.returnPath, outcome);
  });
}
