import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { kitTarGz } from './kit-archives.ts';

/**
 * A local stand-in for GitHub, following its documented REST and OAuth web-flow contract closely
 * enough that the shop's real client (Octokit, fetch) runs against it unchanged:
 *
 * - OAuth: `GET /login/oauth/authorize` (as a person who clicks "Authorize": straight back to
 *   `redirect_uri` with `code` and the same `state`), `POST /login/oauth/access_token` (checks the
 *   client, the code, the redirect URI and the PKCE verifier; answers JSON when asked), `GET /user`.
 * - REST under `/api`: collaborators (PUT, GET, DELETE), repository invitations (GET, DELETE) and
 *   a user by id (`GET /user/{account_id}`), each checking the bearer token,
 *   `Accept: application/vnd.github+json`, `X-GitHub-Api-Version`, a `User-Agent` and the JSON body.
 * - Accounts as GitHub keeps them: a numeric id that never changes and a login that may (`rename`),
 *   after which the old login is free for anyone to take. Collaborators and invitations belong to
 *   the id; a path naming a login nobody has answers 404, as GitHub does (removing a collaborator
 *   documents 204, 403 and 422 only: an existing account that is no collaborator gets 204).
 * - Releases (`addRelease`): `GET /repos/{owner}/{repo}/releases` (newest first, `per_page`/`page`,
 *   drafts included as GitHub shows them to a token with push access) and
 *   `GET /repos/{owner}/{repo}/tarball/{ref}`, answered 302 to a codeload-like address that serves
 *   the gzipped tar with GitHub's single top folder `{owner}-{repo}-{short sha}/`.
 * - Failures injected ahead of time (`failNext`): a status with headers and body, a number of times.
 * - Control over HTTP under `/_stand-in/` for the e2e stack and the bench (another process):
 *   accounts, renames, acceptances, failures, new repositories and releases, and the state.
 */

export type StandInUser = { id: number; login: string };
type StoredInvitation = { id: number; repository: string; inviteeId: number; created_at: string };
/** An invitation with its invitee's login as of now. */
export type Invitation = { id: number; repository: string; login: string; inviteeId: number; created_at: string };
export type Failure = {
  method?: string;
  /** Matches when the request path contains it (e.g. `/collaborators/`). */
  path?: string;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  times?: number;
};
export type RecordedCall = { method: string; path: string; status: number; at: number };

export type GithubStandInOptions = {
  token: string;
  clientId: string;
  clientSecret: string;
  /** `owner/name` of the repositories that exist. */
  repositories: string[];
};

const API_VERSION = '2022-11-28';

export async function startGithubStandIn(options: GithubStandInOptions) {
  const users = new Map<number, StandInUser>(); // by id
  // Per repository, the ids of its collaborators.
  const collaborators = new Map<string, Set<number>>(options.repositories.map((r) => [r.toLowerCase(), new Set()]));
  const invitations: StoredInvitation[] = [];
  const failures: Failure[] = [];
  const calls: RecordedCall[] = [];
  const codes = new Map<string, { userId: number; challenge: string; redirectUri: string }>();
  const userTokens = new Map<string, number>();
  let nextUser: StandInUser | undefined;
  let nextInvitationId = 1000;
  const problems: string[] = [];
  type StoredRelease = {
    id: number;
    tag_name: string;
    name: string;
    body: string;
    draft: boolean;
    published_at: string;
    tarball: Buffer;
  };
  const releases = new Map<string, StoredRelease[]>(); // by lower-cased repository, newest first

  /** Logins are unique on GitHub, case-insensitively. */
  const userByLogin = (login: string) => {
    const wanted = login.toLowerCase();
    for (const user of users.values()) if (user.login.toLowerCase() === wanted) return user;
    return undefined;
  };
  const loginOf = (id: number) => users.get(id)?.login ?? 'ghost';

  /** Signs an account up (a known one, with its login of now, is left as it is). */
  const addUser = (user: StandInUser): StandInUser => {
    const known = users.get(user.id);
    if (known && known.login.toLowerCase() === user.login.toLowerCase()) return known;
    if (known) throw new Error(`account ${user.id} is ${known.login}, not ${user.login} (rename it instead)`);
    const holder = userByLogin(user.login);
    if (holder) throw new Error(`the login ${user.login} belongs to account ${holder.id}`);
    const created = { id: user.id, login: user.login };
    users.set(created.id, created);
    return created;
  };

  /** The account changes its login on GitHub: its id, access and invitations stay; the old login is free. */
  const rename = (id: number, login: string): StandInUser => {
    const user = users.get(id);
    if (!user) throw new Error(`no account ${id}`);
    const holder = userByLogin(login);
    if (holder && holder.id !== id) throw new Error(`the login ${login} belongs to account ${holder.id}`);
    user.login = login;
    return user;
  };

  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
      ...headers,
    });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = '';
      req.on('data', (chunk) => {
        data += chunk;
      });
      req.on('end', () => resolve(data));
    });

  /** What a REST call must carry; a wrong one is answered as GitHub would, and remembered. */
  const checkRestHeaders = (req: IncomingMessage): { status: number; message: string } | undefined => {
    const problem = (status: number, message: string) => {
      problems.push(`${req.method} ${req.url}: ${message}`);
      return { status, message };
    };
    if (req.headers.authorization !== `Bearer ${options.token}`) return problem(401, 'Bad credentials');
    if (req.headers.accept !== 'application/vnd.github+json')
      return problem(415, `Accept must be application/vnd.github+json, not ${req.headers.accept}`);
    if (req.headers['x-github-api-version'] !== API_VERSION)
      return problem(400, `X-GitHub-Api-Version must be ${API_VERSION}`);
    if (!req.headers['user-agent']) return problem(403, 'A User-Agent header is required');
    return undefined;
  };

  const takeFailure = (method: string, path: string) => {
    const index = failures.findIndex((f) => (!f.method || f.method === method) && (!f.path || path.includes(f.path)));
    if (index < 0) return undefined;
    const failure = failures[index]!;
    failure.times = (failure.times ?? 1) - 1;
    if (failure.times <= 0) failures.splice(index, 1);
    return failure;
  };

  const invitationOf = (repository: string, inviteeId: number) =>
    invitations.find((i) => i.repository === repository && i.inviteeId === inviteeId);

  const invitationJson = (i: StoredInvitation) => ({
    id: i.id,
    repository: { full_name: i.repository, html_url: `${url}/${i.repository}` },
    invitee: { login: loginOf(i.inviteeId), id: i.inviteeId, type: 'User' },
    permissions: 'read',
    created_at: i.created_at,
    html_url: `${url}/${i.repository}/invitations`,
  });

  async function handleRest(req: IncomingMessage, res: ServerResponse, path: string, method: string) {
    const bad = checkRestHeaders(req);
    if (bad) return send(res, bad.status, { message: bad.message, documentation_url: 'https://docs.github.com/rest' });
    const failure = takeFailure(method, path);
    if (failure) return send(res, failure.status, failure.body ?? { message: 'Injected failure' }, failure.headers);

    const userMatch = path.match(/^\/user\/(\d+)$/);
    if (userMatch && method === 'GET') {
      const user = users.get(Number(userMatch[1]));
      return user
        ? send(res, 200, { id: user.id, login: user.login, type: 'User' })
        : send(res, 404, { message: 'Not Found' });
    }

    const releaseMatch = path.match(/^\/repos\/([^/]+)\/([^/]+)\/(releases|tarball\/(.+))$/);
    if (releaseMatch && method === 'GET') {
      const repository =
        `${decodeURIComponent(releaseMatch[1]!)}/${decodeURIComponent(releaseMatch[2]!)}`.toLowerCase();
      if (!collaborators.has(repository)) return send(res, 404, { message: 'Not Found' });
      const list = releases.get(repository) ?? [];
      if (releaseMatch[3] === 'releases') {
        const query = new URL(req.url!, 'http://x').searchParams;
        const perPage = Math.min(Number(query.get('per_page') ?? 30), 100);
        const page = Number(query.get('page') ?? 1);
        const json = list.slice((page - 1) * perPage, page * perPage).map(({ tarball: _bytes, ...r }) => ({
          ...r,
          prerelease: false,
          created_at: r.published_at,
          html_url: `${url}/${repository}/releases/tag/${r.tag_name}`,
          tarball_url: `${url}/api/repos/${repository}/tarball/${r.tag_name}`,
          zipball_url: `${url}/api/repos/${repository}/zipball/${r.tag_name}`,
        }));
        return send(res, 200, json);
      }
      const ref = decodeURIComponent(releaseMatch[4]!);
      if (!list.some((r) => r.tag_name === ref)) return send(res, 404, { message: 'Not Found' });
      res.writeHead(302, {
        location: `${url}/codeload/${repository}/legacy.tar.gz/refs/tags/${encodeURIComponent(ref)}`,
      });
      return res.end();
    }

    const repoMatch = path.match(/^\/repos\/([^/]+)\/([^/]+)\/(collaborators|invitations)(?:\/([^/]+))?$/);
    if (!repoMatch) return send(res, 404, { message: 'Not Found' });
    const repository = `${decodeURIComponent(repoMatch[1]!)}/${decodeURIComponent(repoMatch[2]!)}`.toLowerCase();
    const members = collaborators.get(repository);
    if (!members) return send(res, 404, { message: 'Not Found' });
    const kind = repoMatch[3];
    const last = repoMatch[4] ? decodeURIComponent(repoMatch[4]) : undefined;

    if (kind === 'collaborators' && last) {
      const user = userByLogin(last);
      if (method === 'PUT') {
        const raw = await readBody(req);
        let body: { permission?: unknown };
        try {
          body = JSON.parse(raw);
        } catch {
          problems.push(`PUT ${path}: body is not JSON: ${raw}`);
          return send(res, 400, { message: 'Problems parsing JSON' });
        }
        if (req.headers['content-type']?.startsWith('application/json') !== true)
          problems.push(`PUT ${path}: content-type ${req.headers['content-type']}`);
        if (body.permission !== 'pull') {
          problems.push(`PUT ${path}: permission ${String(body.permission)}`);
          return send(res, 422, { message: 'Validation Failed', errors: [{ field: 'permission', code: 'invalid' }] });
        }
        if (!user)
          return send(res, 422, { message: 'Validation Failed', errors: [{ field: 'username', code: 'invalid' }] });
        if (members.has(user.id)) return send(res, 204);
        let invitation = invitationOf(repository, user.id);
        if (!invitation) {
          invitation = { id: nextInvitationId++, repository, inviteeId: user.id, created_at: new Date().toISOString() };
          invitations.push(invitation);
        }
        return send(res, 201, invitationJson(invitation));
      }
      if (method === 'GET')
        return user && members.has(user.id) ? send(res, 204) : send(res, 404, { message: 'Not Found' });
      if (method === 'DELETE') {
        if (!user) return send(res, 404, { message: 'Not Found' });
        members.delete(user.id);
        // Removing a collaborator also cancels their outstanding invitations.
        for (let i = invitations.length - 1; i >= 0; i--)
          if (invitations[i]!.repository === repository && invitations[i]!.inviteeId === user.id)
            invitations.splice(i, 1);
        return send(res, 204);
      }
    }
    if (kind === 'invitations' && !last && method === 'GET') {
      const query = new URL(req.url!, 'http://x').searchParams;
      const perPage = Math.min(Number(query.get('per_page') ?? 30), 100);
      const page = Number(query.get('page') ?? 1);
      const all = invitations.filter((i) => i.repository === repository);
      const slice = all.slice((page - 1) * perPage, page * perPage);
      const headers: Record<string, string> = {};
      if (page * perPage < all.length)
        headers.link = `<${url}/api${path}?per_page=${perPage}&page=${page + 1}>; rel="next"`;
      return send(res, 200, slice.map(invitationJson), headers);
    }
    if (kind === 'invitations' && last && method === 'DELETE') {
      const index = invitations.findIndex((i) => i.repository === repository && String(i.id) === last);
      if (index < 0) return send(res, 404, { message: 'Not Found' });
      invitations.splice(index, 1);
      return send(res, 204);
    }
    return send(res, 404, { message: 'Not Found' });
  }

  async function handleOAuth(req: IncomingMessage, res: ServerResponse, path: string, method: string) {
    const query = new URL(req.url!, 'http://x').searchParams;
    if (path === '/login/oauth/authorize' && method === 'GET') {
      const redirectUri = query.get('redirect_uri') ?? '';
      const state = query.get('state');
      const challenge = query.get('code_challenge');
      if (query.get('client_id') !== options.clientId) return send(res, 404, { message: 'Unknown client_id' });
      if (!redirectUri || !state || !challenge || query.get('code_challenge_method') !== 'S256') {
        problems.push(`authorize without redirect_uri, state or S256 code_challenge: ${req.url}`);
        return send(res, 400, { message: 'redirect_uri, state and an S256 code_challenge are required' });
      }
      // Who is signed in to "GitHub" in this browser (its cookie, as github.com knows its visitor),
      // else the account set for the next authorisation, else a new one.
      const cookieLogin = /(?:^|;\s*)stand_in_user=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
      const signedIn = cookieLogin ? userByLogin(decodeURIComponent(cookieLogin)) : undefined;
      const user = signedIn ?? nextUser ?? addUser({ id: 90_000 + users.size, login: `octo-${users.size}` });
      const code = randomBytes(10).toString('hex');
      codes.set(code, { userId: user.id, challenge, redirectUri });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', state);
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (path === '/login/oauth/access_token' && method === 'POST') {
      const raw = await readBody(req);
      const type = req.headers['content-type'] ?? '';
      const body: Record<string, string> = type.includes('json')
        ? JSON.parse(raw || '{}')
        : Object.fromEntries(new URLSearchParams(raw));
      if (!String(req.headers.accept).includes('application/json')) {
        problems.push('access_token without Accept: application/json');
        res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' });
        return res.end('error=accept_json_please');
      }
      const grant = codes.get(body.code ?? '');
      codes.delete(body.code ?? '');
      const verifierOk =
        grant &&
        createHash('sha256')
          .update(body.code_verifier ?? '')
          .digest('base64url') === grant.challenge;
      if (body.client_id !== options.clientId || body.client_secret !== options.clientSecret)
        return send(res, 200, { error: 'incorrect_client_credentials' });
      if (!grant) return send(res, 200, { error: 'bad_verification_code' });
      if (body.redirect_uri && body.redirect_uri !== grant.redirectUri)
        return send(res, 200, { error: 'redirect_uri_mismatch' });
      if (!verifierOk) return send(res, 200, { error: 'bad_verification_code', error_description: 'PKCE failed' });
      const token = `gho_${randomBytes(16).toString('hex')}`;
      userTokens.set(token, grant.userId);
      return send(res, 200, { access_token: token, token_type: 'bearer', scope: '' });
    }
    return undefined;
  }

  const server = createServer(async (req, res) => {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    try {
      if (path.startsWith('/_stand-in/')) return await handleControl(req, res, path, method);
      const recorded = { method, path: path.startsWith('/api/') ? path.slice(4) : path, status: 0, at: Date.now() };
      calls.push(recorded);
      res.on('finish', () => {
        recorded.status = res.statusCode;
      });
      if (path.startsWith('/login/oauth/')) {
        if ((await handleOAuth(req, res, path, method)) !== undefined || res.headersSent) return;
      } else if (path === '/api/user' && method === 'GET') {
        const userId = userTokens.get(String(req.headers.authorization).replace(/^(Bearer|token) /, ''));
        const user = userId === undefined ? undefined : users.get(userId);
        if (!user) return send(res, 401, { message: 'Bad credentials' });
        return send(res, 200, { id: user.id, login: user.login, type: 'User' });
      } else if (path.startsWith('/api/')) return await handleRest(req, res, recorded.path, method);
      else if (path.startsWith('/codeload/') && method === 'GET') {
        // codeload.github.com: the signed address needs no token (fetch drops it on the redirect).
        const match = /^\/codeload\/([^/]+\/[^/]+)\/legacy\.tar\.gz\/refs\/tags\/(.+)$/.exec(path);
        const release = match && releases.get(match[1]!)?.find((r) => r.tag_name === decodeURIComponent(match[2]!));
        if (!release) return send(res, 404, { message: 'Not Found' });
        res.writeHead(200, { 'content-type': 'application/x-gzip', 'content-length': release.tarball.length });
        return res.end(release.tarball);
      }
      return send(res, 404, { message: 'Not Found' });
    } catch (error) {
      problems.push(`${method} ${path}: ${String(error)}`);
      if (!res.headersSent) send(res, 500, { message: 'stand-in error' });
    }
  });

  /** The same controls over HTTP, for a stand-in running in another process. */
  async function handleControl(req: IncomingMessage, res: ServerResponse, path: string, method: string) {
    const body = method === 'POST' ? JSON.parse((await readBody(req)) || '{}') : {};
    if (path === '/_stand-in/next-user' && method === 'POST') return send(res, 200, control.setNextUser(body));
    if (path === '/_stand-in/user' && method === 'POST') return send(res, 200, control.addUser(body));
    if (path === '/_stand-in/rename' && method === 'POST') return send(res, 200, control.rename(body.id, body.login));
    if (path === '/_stand-in/accept' && method === 'POST')
      return send(res, 200, { accepted: control.accept(body.repository, body.login) });
    if (path === '/_stand-in/fail' && method === 'POST') {
      control.failNext(body);
      return send(res, 200, {});
    }
    if (path === '/_stand-in/repository' && method === 'POST') {
      control.addRepository(body.name);
      return send(res, 200, {});
    }
    if (path === '/_stand-in/release' && method === 'POST') {
      const { repository, ...release } = body;
      await control.addRelease(repository, release);
      return send(res, 200, {});
    }
    if (path === '/_stand-in/state' && method === 'GET') return send(res, 200, control.state());
    return send(res, 404, { message: 'Not Found' });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const control = {
    url,
    /** GITHUB_API_URL for the shop. */
    apiUrl: `${url}/api`,
    /** GITHUB_WEB_URL for the shop. */
    webUrl: url,
    addUser,
    rename,
    /** The account the next OAuth authorisation signs in as (created if new). */
    setNextUser(user: StandInUser) {
      nextUser = addUser(user);
      return nextUser;
    },
    /** Creates a repository (an existing one is left as it is). */
    addRepository(repository: string) {
      const key = repository.toLowerCase();
      if (!collaborators.has(key)) collaborators.set(key, new Set());
    },
    /**
     * Publishes a release of an existing repository: its tag, title, notes (body) and the files of
     * its source tree, packed as GitHub packs a tarball (one top folder named after the commit).
     */
    async addRelease(
      repository: string,
      release: { tag: string; name?: string; body?: string; draft?: boolean; files: Record<string, string> },
    ) {
      const key = repository.toLowerCase();
      if (!collaborators.has(key)) throw new Error(`no repository ${repository}`);
      const sha = createHash('sha1').update(`${key}@${release.tag}`).digest('hex');
      const top = `${key.replace('/', '-')}-${sha.slice(0, 7)}`;
      const list = releases.get(key) ?? [];
      list.unshift({
        id: 5000 + list.length,
        tag_name: release.tag,
        name: release.name ?? release.tag,
        body: release.body ?? '',
        draft: release.draft ?? false,
        published_at: new Date().toISOString(),
        tarball: await kitTarGz(top, release.files),
      });
      releases.set(key, list);
    },
    failNext(failure: Failure) {
      failures.push({ times: 1, ...failure });
    },
    /** The invitee accepts on GitHub: the invitation becomes a collaborator. */
    accept(repository: string, login: string) {
      const user = userByLogin(login);
      const invitation = user && invitationOf(repository.toLowerCase(), user.id);
      if (!invitation) return false;
      invitations.splice(invitations.indexOf(invitation), 1);
      collaborators.get(invitation.repository)?.add(invitation.inviteeId);
      return true;
    },
    invitations: (): Invitation[] => invitations.map((i) => ({ ...i, login: loginOf(i.inviteeId) })),
    /** The collaborators' logins as of now, lower-cased. */
    collaborators: (repository: string) =>
      [...(collaborators.get(repository.toLowerCase()) ?? [])].map((id) => loginOf(id).toLowerCase()),
    collaboratorIds: (repository: string) => [...(collaborators.get(repository.toLowerCase()) ?? [])],
    calls: () => calls.map((c) => ({ ...c })),
    /** Requests that broke the contract (wrong headers, body, state): a test expects none. */
    problems: () => [...problems],
    state() {
      return {
        invitations: control.invitations(),
        collaborators: Object.fromEntries([...collaborators.keys()].map((r) => [r, control.collaborators(r)])),
        calls: control.calls(),
        problems: control.problems(),
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return control;
}
export type GithubStandIn = Awaited<ReturnType<typeof startGithubStandIn>>;
