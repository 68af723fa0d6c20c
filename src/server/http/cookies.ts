import { COOKIE_NAMES } from '../../common/page-data.ts';
import type { Config } from '../config.ts';

export { COOKIE_NAMES };

export type ShopCookies = Record<keyof typeof COOKIE_NAMES, string> & {
  /** The attributes all of them share. */
  options: { path: string; httpOnly: true; sameSite: 'lax'; secure: boolean };
};

/**
 * The shop's cookie names and attributes, derived from the config here and nowhere else.
 *
 * On https the names start with `__Host-`: the browser then keeps them only when set by this very
 * host over https with Path=/ and no Domain, so a sibling subdomain or a plain-http page cannot
 * plant or overwrite a session or CSRF cookie. The prefix demands Path=/ also under a BASE_PATH;
 * that costs nothing, since a path never kept other pages of the same origin out (they can script
 * the shop's pages anyway). The base path goes into the names instead, so two shops on one host
 * keep their cookies apart as their paths did.
 */
export function shopCookies(config: Pick<Config, 'secureCookies' | 'basePath'>): ShopCookies {
  const https = config.secureCookies;
  const name = (plain: string) => (https ? `__Host-${plain}${config.basePath.replace(/[^\w-]/g, '_')}` : plain);
  return {
    session: name(COOKIE_NAMES.session),
    csrf: name(COOKIE_NAMES.csrf),
    oidc: name(COOKIE_NAMES.oidc),
    signIn: name(COOKIE_NAMES.signIn),
    options: { path: https ? '/' : config.basePath || '/', httpOnly: true, sameSite: 'lax', secure: https },
  };
}
