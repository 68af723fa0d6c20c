import { createHash, randomBytes } from 'node:crypto';
import type { Octokit } from '@octokit/rest';

/**
 * GitHub, for private-repository delivery: the collaborator calls (Octokit, with the shop's token)
 * and the OAuth web flow a buyer connects their account with. Every call has a time limit; what
 * went wrong is a GithubError that says whether trying again later can help, and when.
 */

export type GithubSettings = { token: string; clientId: string; clientSecret: string; apiUrl: string; webUrl: string };

const USER_AGENT = 'Kitshop (private-repository delivery)';
const API_VERSION = '2022-11-28';
const TIMEOUT_MS = 15_000;
/** Octokit logs failed requests with console.error; the callers log what they decide instead. */
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
/** Octokit is loaded by the first GitHub call, not at start (most processes make none for a long while). */
async function newOctokit(apiUrl: string, auth?: string): Promise<Octokit> {
  const { Octokit } = await import('@octokit/rest');
  return new Octokit({
    baseUrl: apiUrl,
    userAgent: USER_AGENT,
    request: { retries: 0 },
    log: quiet,
    ...(auth ? { auth } : {}),
  });
}

export class GithubError extends Error {
  constructor(
    message: string,
    /** The HTTP status (undefined for a network error or a time-out). */
    readonly status: number | undefined,
    /** Whether the same call may succeed later (5xx, network, rate limits). */
    readonly retryable: boolean,
    /** For a rate limit: when GitHub said to come back, in seconds from now. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'GithubError';
  }
}

type Headers = Record<string, string | number | undefined>;

/**
 * A rate limit's wait, per GitHub's docs: `retry-after` seconds, else `x-ratelimit-reset` (epoch
 * seconds) when no requests remain; undefined when the answer is not a rate limit.
 */
export function rateLimitWaitSeconds(status: number, headers: Headers, nowMs = Date.now()): number | undefined {
  if (status !== 403 && status !== 429) return undefined;
  const retryAfter = Number(headers['retry-after']);
  if (headers['retry-after'] !== undefined && Number.isFinite(retryAfter)) return Math.max(0, retryAfter);
  const reset = Number(headers['x-ratelimit-reset']);
  if (String(headers['x-ratelimit-remaining']) === '0' && Number.isFinite(reset))
    return Math.max(0, Math.ceil(reset - nowMs / 1000));
  // A 429 without either header is still a rate limit: GitHub asks for at least a minute then.
  return status === 429 ? 60 : undefined;
}

/** Any failure of a call, as a GithubError. */
export function toGithubError(error: unknown): GithubError {
  if (error instanceof GithubError) return error;
  const e = error as { status?: number; message?: string; response?: { headers?: Headers; data?: unknown } };
  const status = typeof e.status === 'number' && e.status > 0 ? e.status : undefined;
  const data = e.response?.data as { message?: string; errors?: unknown } | undefined;
  const detail = data?.message ?? e.message ?? String(error);
  if (status === undefined) return new GithubError(`GitHub could not be reached: ${detail}`, undefined, true);
  const wait = rateLimitWaitSeconds(status, e.response?.headers ?? {});
  if (wait !== undefined) return new GithubError(`GitHub rate limit (${status}): ${detail}`, status, true, wait);
  const retryable = status >= 500 || status === 408;
  const errors = data?.errors ? ` ${JSON.stringify(data.errors)}` : '';
  return new GithubError(`GitHub answered ${status}: ${detail}${errors}`.slice(0, 500), status, retryable);
}

const splitRepository = (repository: string) => {
  const [owner, repo] = repository.split('/') as [string, string];
  return { owner, repo };
};

/**
 * The shop's side of repository access: invite, remove, check. Accounts are named by their numeric
 * id, the one thing about them that never changes: a login is looked up from it for every call, since
 * its owner may rename it and someone else may take the old one.
 */
export function createGithubRepositories(settings: Pick<GithubSettings, 'token' | 'apiUrl'>) {
  let client: Promise<Octokit> | undefined;
  const shopClient = () =>
    (client ??= newOctokit(settings.apiUrl).then((octokit) => {
      octokit.hook.before('request', (options) => {
        options.headers.authorization = `Bearer ${settings.token}`;
        options.headers.accept = 'application/vnd.github+json';
        options.headers['x-github-api-version'] = API_VERSION;
        options.request = { ...options.request, signal: AbortSignal.timeout(TIMEOUT_MS) };
      });
      return octokit;
    }));
  const call = async <T>(work: (octokit: Octokit) => Promise<T>): Promise<T> => {
    const octokit = await shopClient();
    try {
      return await work(octokit);
    } catch (error) {
      throw toGithubError(error);
    }
  };

  /** Whether the call answered 404 (a login, collaborator or invitation GitHub does not know). */
  const notFound = (error: unknown) => (error as { status?: number }).status === 404;

  /** The account's login as of now, from its id (which never changes); undefined once the account is gone. */
  const currentLogin = (accountId: number) =>
    call(async (octokit) => {
      try {
        return (await octokit.rest.users.getById({ account_id: accountId })).data.login;
      } catch (error) {
        if (notFound(error)) return undefined;
        throw error;
      }
    });

  const isCollaborator = (repository: string, login: string) =>
    call(async (octokit) => {
      try {
        await octokit.rest.repos.checkCollaborator({ ...splitRepository(repository), username: login });
        return true;
      } catch (error) {
        if (notFound(error)) return false;
        throw error;
      }
    });

  /** The repository's pending invitations of the account, matched by the invitee's id, not a login. */
  const invitationsOf = async (repository: string, accountId: number) => {
    const pending = await call((octokit) =>
      octokit.paginate(octokit.rest.repos.listInvitations, { ...splitRepository(repository), per_page: 100 }),
    );
    return pending.filter((invitation) => invitation.invitee?.id === accountId);
  };

  return {
    login: currentLogin,
    /**
     * Invites the account, by id, as a reader under its login of now: `invited` (201, an invitation
     * to accept) or `active` (204, already in), with the login it was invited under.
     */
    async invite(repository: string, accountId: number): Promise<{ outcome: 'invited' | 'active'; login: string }> {
      const login = await currentLogin(accountId);
      if (login === undefined) throw new GithubError(`GitHub has no account #${accountId} any more`, 404, false);
      const response = await call((octokit) =>
        octokit.rest.repos.addCollaborator({ ...splitRepository(repository), username: login, permission: 'pull' }),
      );
      return { outcome: (response.status as number) === 201 ? 'invited' : 'active', login };
    },
    /**
     * Takes the account's access away, by id: its pending invitations, then the collaborator under
     * its login of now. A 404 on the removal is no proof: the login may have changed hands since it
     * was looked up, so it is looked up again, and the removal counts only when that login is no
     * collaborator and the id has no invitation left. Answers the login it was removed under
     * (undefined when the account is gone from GitHub, and with it its access).
     */
    async remove(repository: string, accountId: number): Promise<{ login: string | undefined }> {
      const target = splitRepository(repository);
      const withdrawInvitations = async () => {
        for (const invitation of await invitationsOf(repository, accountId))
          await call(async (octokit) => {
            try {
              await octokit.rest.repos.deleteInvitation({ ...target, invitation_id: invitation.id });
            } catch (error) {
              if (!notFound(error)) throw error;
            }
          });
      };
      for (let look = 0; look < 3; look++) {
        const login = await currentLogin(accountId);
        await withdrawInvitations();
        if (login === undefined) return { login };
        const removed = await call(async (octokit) => {
          try {
            await octokit.rest.repos.removeCollaborator({ ...target, username: login });
            return true;
          } catch (error) {
            if (notFound(error)) return false;
            throw error;
          }
        });
        if (removed) return { login };
        if (
          (await currentLogin(accountId)) === login &&
          !(await isCollaborator(repository, login)) &&
          (await invitationsOf(repository, accountId)).length === 0
        )
          return { login };
      }
      throw new GithubError(
        `GitHub answered 404 to removing account #${accountId} from ${repository}, which it still reaches`,
        404,
        true,
      );
    },
    /** Whether the login is a collaborator now (it accepted its invitation). */
    isCollaborator,
  };
}
export type GithubRepositories = ReturnType<typeof createGithubRepositories>;

export type GithubIdentity = { id: number; login: string };

/**
 * The OAuth web flow a buyer connects their account with: authorize URL (state and PKCE S256),
 * the code exchanged for a token, and the account read with it. No scope is asked: the shop needs
 * only the account's id and login, and never keeps the token.
 */
export function createGithubOAuth(settings: GithubSettings & { redirectUri: string }) {
  return {
    start(state: string) {
      const codeVerifier = randomBytes(32).toString('base64url');
      const url = new URL(`${settings.webUrl}/login/oauth/authorize`);
      url.searchParams.set('client_id', settings.clientId);
      url.searchParams.set('redirect_uri', settings.redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('code_challenge', createHash('sha256').update(codeVerifier).digest('base64url'));
      url.searchParams.set('code_challenge_method', 'S256');
      url.searchParams.set('allow_signup', 'true');
      return { url: url.href, codeVerifier };
    },
    async finish(code: string, codeVerifier: string): Promise<GithubIdentity> {
      const response = await fetch(`${settings.webUrl}/login/oauth/access_token`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json', 'user-agent': USER_AGENT },
        body: JSON.stringify({
          client_id: settings.clientId,
          client_secret: settings.clientSecret,
          code,
          redirect_uri: settings.redirectUri,
          code_verifier: codeVerifier,
        }),
        // The body holds the client secret: it goes to GitHub's own address and nowhere it redirects.
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const body = (await response.json().catch(() => ({}))) as { access_token?: string; error?: string };
      if (!response.ok || !body.access_token)
        throw new GithubError(`GitHub refused the code: ${body.error ?? response.status}`, response.status, false);
      try {
        const { data } = await (await newOctokit(settings.apiUrl, body.access_token)).rest.users.getAuthenticated({
          headers: { accept: 'application/vnd.github+json', 'x-github-api-version': API_VERSION },
          request: { signal: AbortSignal.timeout(TIMEOUT_MS) },
        });
        return { id: data.id, login: data.login };
      } catch (error) {
        throw toGithubError(error);
      }
    },
  };
}
export type GithubOAuth = ReturnType<typeof createGithubOAuth>;
