import { coreErrors } from '../http/errors.js';
import { headerValue, type SiteRequest } from '../http/request.js';
import type { SiteContext } from '../site-context.js';
import type { UserRecord } from '../store/records.js';
import { verifyApplicationPassword } from './application-passwords.js';
import type { NonceSubject } from './nonce.js';
import type { Principal } from './principal.js';
import type { Maybe } from '../util/maybe.js';

/** How a host app's `authenticate` hook says where the caller's credentials came from. */
export interface HookCredentials {
  /**
   * `'cookie'` (the default): credentials a browser attaches by itself — a session cookie, a `req.session`, a
   * `req.user` restored from one. Any site can make a browser send them, so, as with WordPress's cookie
   * authentication, such a caller counts only with a nonce from `site.createNonce()` in the `X-WP-Nonce` header
   * or the `_wpnonce` param; without one the request is anonymous, and a wrong one is a 403.
   * `'header'`: credentials a client must attach on purpose (a bearer token in `Authorization`), which another
   * site cannot make a browser send; no nonce is needed.
   */
  credentials?: 'cookie' | 'header';
  /** The caller's session (WordPress's session token): nonces then only verify within that session. */
  session?: string;
}

/**
 * What a host app's `authenticate` hook returns: a full principal, a user of the store by id or login, or
 * nothing for an anonymous request; each optionally says where its credentials came from.
 */
export type AuthenticateResult =
  | ((Principal | { userId: number } | { login: string }) & HookCredentials)
  | null
  | undefined;

/**
 * The host app's hook: the neutral request, and the framework's own request object (Express `req`, Fastify
 * `request`) for the app's session, `req.user` and the like.
 */
export type AuthenticateHook<FrameworkRequest = unknown> = (
  request: SiteRequest,
  frameworkRequest: FrameworkRequest,
) => AuthenticateResult | Promise<AuthenticateResult>;

/** What authentication needs of the site besides the store: the hook and its nonces. */
export interface AuthContext extends SiteContext {
  // Each adapter types the framework request; here it is passed through untouched.
  readonly authenticateHook: AuthenticateHook<any> | undefined;
  createNonceFor(subject: NonceSubject): string;
  verifyNonceFor(nonce: unknown, subject: NonceSubject): 1 | 2 | false;
}

/** Who is calling, and what that means for the answer. */
export interface Caller {
  principal: Principal | null;
  /** Headers WordPress sends for this caller: a fresh `X-WP-Nonce` after a valid one. */
  headers: Array<[string, string]>;
  /** Whether a cross-origin answer may be read with credentials (never for a cookie session without a nonce). */
  credentialed: boolean;
}

export function principalOf(user: UserRecord): Principal {
  return { id: user.id, login: user.login, roles: user.roles, displayName: user.displayName, email: user.email };
}

const DAY = 86_400;

/**
 * Resolves who is calling. HTTP Basic credentials are checked as application passwords (a wrong one is a 401,
 * as in WordPress); without them the host app's hook decides. Cookie-style credentials then pass WordPress's
 * rest_cookie_check_errors: no nonce makes the request anonymous, a wrong one is `rest_cookie_invalid_nonce`.
 */
export function identifyCaller(site: AuthContext, request: SiteRequest, nonce: unknown, frameworkRequest: unknown): Maybe<Caller> {
  const authorization = headerValue(request.headers, 'authorization');
  if (site.applicationPasswords.enabled && authorization && /^basic\s+/i.test(authorization)) {
    return authenticateBasic(site, authorization.replace(/^basic\s+/i, ''), request.remoteAddress).then((principal) => ({ principal, headers: [], credentialed: true }));
  }
  // Without a hook nobody is signed in, which needs no waiting (most requests to a public API).
  if (!site.authenticateHook) return cookieCaller(site, null, null, nonce);
  return hookCaller(site, request, nonce, frameworkRequest);
}

async function hookCaller(site: AuthContext, request: SiteRequest, nonce: unknown, frameworkRequest: unknown): Promise<Caller> {
  const result = await site.authenticateHook!(request, frameworkRequest);
  const principal = result ? await principalFromHook(site, result) : null;
  if (result && principal && Object.hasOwn(result, 'credentials') && result.credentials === 'header') return { principal, headers: [], credentialed: true };
  return cookieCaller(site, result ?? null, principal, nonce);
}

/** A caller found through credentials a browser sends by itself (or nobody): WordPress's nonce check. */
function cookieCaller(site: AuthContext, result: NonNullable<AuthenticateResult> | null, principal: Principal | null, nonce: unknown): Caller {
  if (nonce === undefined) return { principal: null, headers: [], credentialed: principal === null };
  const subject: NonceSubject = { userId: principal?.id ?? 0, session: result && Object.hasOwn(result, 'session') ? result.session : undefined };
  if (site.verifyNonceFor(nonce, subject) === false) throw coreErrors.cookieInvalidNonce();
  return { principal, headers: [['X-WP-Nonce', site.createNonceFor(subject)]], credentialed: true };
}

/**
 * The host app's signed-in user for a front-end page (the redirect middleware's `login` and `role` matches): the
 * hook's answer as it stands. WordPress's front end trusts its login cookie without a nonce; the nonce guards only
 * the REST API, whose answers and writes a cross-site page could otherwise trigger.
 */
export async function sessionPrincipal(site: Pick<AuthContext, 'store' | 'authenticateHook'>, request: SiteRequest, frameworkRequest: unknown): Promise<Principal | null> {
  const result = site.authenticateHook ? await site.authenticateHook(request, frameworkRequest) : null;
  return result ? principalFromHook(site, result) : null;
}

async function principalFromHook(site: Pick<SiteContext, 'store'>, result: NonNullable<AuthenticateResult>): Promise<Principal | null> {
  if (Object.hasOwn(result, 'roles')) {
    const { credentials: _credentials, session: _session, ...principal } = result as Principal & HookCredentials;
    return principal;
  }
  if (Object.hasOwn(result, 'userId')) return userPrincipal(await site.store.users.get((result as { userId: number }).userId));
  if (Object.hasOwn(result, 'login')) return userPrincipal(await site.store.users.findByLogin((result as { login: string }).login));
  return null;
}

function userPrincipal(user: UserRecord | null): Principal | null {
  return user ? principalOf(user) : null;
}

async function authenticateBasic(site: SiteContext, encoded: string, ip: string | undefined): Promise<Principal> {
  const decoded = Buffer.from(encoded.trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const login = colon === -1 ? decoded : decoded.slice(0, colon);
  const password = colon === -1 ? '' : decoded.slice(colon + 1);
  const users = site.store.users;
  const user = (await users.findByLogin(login)) ?? (login.includes('@') ? await users.findByEmail(login) : null);
  if (!user) throw login.includes('@') ? coreErrors.invalidEmail() : coreErrors.invalidUsername();
  const records = await site.store.applicationPasswords.listForUser(user.id);
  const match = records.find((record) => verifyApplicationPassword(password, record.passwordHash));
  if (!match) throw coreErrors.incorrectPassword();
  const now = Math.floor(site.now() / 1000);
  if (match.lastUsed === null || now - match.lastUsed > DAY || match.lastIp !== (ip ?? null)) {
    await site.store.applicationPasswords.recordUse(match.uuid, now, ip ?? null);
  }
  return principalOf(user);
}
