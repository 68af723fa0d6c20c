import type * as OpenId from 'openid-client';

export type GoogleSettings = { issuer: string; clientId: string; clientSecret: string; redirectUri: string };
export type GoogleIdentity = { sub: string; email?: string; emailVerified: boolean; name?: string };
export type AuthorizationStart = { url: string; state: string; nonce: string; codeVerifier: string };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * Google sign-in: OpenID Connect code flow with PKCE, state and nonce (openid-client). The issuer
 * is discovered from GOOGLE_ISSUER on first use, when openid-client is loaded too (not at start);
 * plain http is accepted only for a loopback issuer (the tests' stand-in).
 */
export function createGoogleSignIn(settings: GoogleSettings) {
  const issuer = new URL(settings.issuer);
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname))) {
    throw new Error('GOOGLE_ISSUER must be https (plain http only on a loopback address, for tests)');
  }
  let configuration: Promise<{ client: typeof OpenId; config: OpenId.Configuration }> | undefined;
  const discover = () => {
    configuration ??= import('openid-client')
      .then(async (client) => {
        const config = await client.discovery(issuer, settings.clientId, settings.clientSecret, undefined, {
          // openid-client trusts an ID token from the token endpoint by TLS alone (OIDC Core 3.1.3.7);
          // the shop checks its signature against the issuer's keys as well, whatever the transport.
          execute: [
            ...(issuer.protocol === 'http:' ? [client.allowInsecureRequests] : []),
            client.enableNonRepudiationChecks,
          ],
        });
        return { client, config };
      })
      .catch((error) => {
        configuration = undefined; // try again next time
        throw error;
      });
    return configuration;
  };

  return {
    /** `reauth`: Google asks the person to sign in again even with a Google session (`max_age=0`). */
    async start(options: { reauth?: boolean } = {}): Promise<AuthorizationStart> {
      const { client, config } = await discover();
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        ...(options.reauth ? { max_age: '0' } : {}),
      });
      return { url: url.href, state, nonce, codeVerifier };
    },
    async finish(
      callbackUrl: URL,
      expected: { state: string; nonce: string; codeVerifier: string },
    ): Promise<GoogleIdentity> {
      const { client, config } = await discover();
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: expected.codeVerifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims?.sub) throw new Error('The ID token has no subject');
      return {
        sub: claims.sub,
        email: typeof claims.email === 'string' ? claims.email : undefined,
        emailVerified: claims.email_verified === true,
        name: typeof claims.name === 'string' ? claims.name : undefined,
      };
    },
  };
}
export type GoogleSignIn = ReturnType<typeof createGoogleSignIn>;
