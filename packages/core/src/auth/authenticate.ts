import { ApiError } from '../http/api-error.js';
import { coreErrors } from '../http/errors.js';
import { headerValue, type SiteRequest } from '../http/request.js';
import type { SiteContext } from '../site-context.js';
import type { UserRecord } from '../store/records.js';
import { verifyApplicationPassword } from './application-passwords.js';
import type { Principal } from './principal.js';

/**
 * What a host app's `authenticate` hook returns: a full principal, a user of the store by id or login, or
 * nothing for an anonymous request.
 */
export type AuthenticateResult = Principal | { userId: number } | { login: string } | null | undefined;

export type AuthenticateHook = (request: SiteRequest) => AuthenticateResult | Promise<AuthenticateResult>;

export function principalOf(user: UserRecord): Principal {
  return { id: user.id, login: user.login, roles: user.roles, displayName: user.displayName, email: user.email };
}

const DAY = 86_400;

/**
 * Resolves who is calling. HTTP Basic credentials are checked as application passwords (a wrong one is a 401,
 * as in WordPress); without them the host app's hook decides.
 */
export async function authenticate(
  site: SiteContext,
  request: SiteRequest,
  hook: AuthenticateHook | undefined,
): Promise<Principal | null> {
  const authorization = headerValue(request.headers, 'authorization');
  if (site.applicationPasswords.enabled && authorization && /^basic\s+/i.test(authorization)) {
    return authenticateBasic(site, authorization.replace(/^basic\s+/i, ''), request.remoteAddress);
  }
  if (!hook) return null;
  const result = await hook(request);
  if (!result) return null;
  if ('roles' in result) return result;
  const user =
    'userId' in result ? await site.store.users.get(result.userId) : await site.store.users.findByLogin(result.login);
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

export function isAuthError(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 401;
}
