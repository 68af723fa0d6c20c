import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGithubOAuth } from './github/github.ts';
import { PaddleApiError, requestRefund } from './payments/paddle-api.ts';

/**
 * Calls that carry a secret (Paddle's API key, GitHub's client secret) go to the configured address
 * only: a redirect from there is refused, never followed with the secret (ASVS 15.3.2).
 */
let elsewhere: Server;
let redirecting: Server;
const reachedElsewhere: string[] = [];
let redirectingUrl = '';

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  elsewhere = createServer((req, res) => {
    reachedElsewhere.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":{"id":"adj_1","status":"approved"},"access_token":"gho_x"}');
  });
  const elsewhereUrl = await listen(elsewhere);
  // 307 keeps the method and the body: a client that follows it sends the secret on.
  redirecting = createServer((req, res) => {
    res.writeHead(307, { location: `${elsewhereUrl}${req.url}` });
    res.end();
  });
  redirectingUrl = await listen(redirecting);
});
afterAll(async () => {
  await new Promise((resolve) => redirecting.close(resolve));
  await new Promise((resolve) => elsewhere.close(resolve));
});

describe('outbound calls with secrets', () => {
  it('refuses a redirect from Paddle’s API instead of sending the API key on', async () => {
    const refund = requestRefund(
      { apiUrl: redirectingUrl, apiKey: 'pdl_live_secret' },
      { transactionId: 'txn_1', reason: 'test', itemIds: ['txnitm_1'] },
    );
    await expect(refund).rejects.toBeInstanceOf(PaddleApiError);
    expect(reachedElsewhere).toEqual([]);
  });

  it('refuses a redirect of GitHub’s token exchange instead of sending the client secret on', async () => {
    const oauth = createGithubOAuth({
      token: 'ghp_shop',
      clientId: 'client',
      clientSecret: 'github-client-secret',
      apiUrl: redirectingUrl,
      webUrl: redirectingUrl,
      redirectUri: 'http://shop.test/github/callback',
    });
    await expect(oauth.finish('code', 'verifier')).rejects.toThrow();
    expect(reachedElsewhere).toEqual([]);
  });
});
