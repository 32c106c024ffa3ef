import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Nonces for cookie sessions, as WordPress's wp_create_nonce('wp_rest') / wp_verify_nonce: a keyed hash of the
 * current half-lifetime tick, the action, the user and the session. A nonce is valid during the tick it was made
 * in and the next one, so for between one half and one whole lifetime (12 to 24 hours by default). The key is kept
 * in the store (option `siterest_nonce_key`), so every instance on the same data verifies every other's nonces.
 */

/** WordPress's nonce_life: a day. */
export const DEFAULT_NONCE_LIFETIME = 86_400;

/** The option that holds the site's nonce key (WordPress keeps its nonce salt in an option the same way). */
export const NONCE_KEY_OPTION = 'siterest_nonce_key';

const ACTION = 'wp_rest';
/** A nonce is ten hexadecimal characters, as WordPress's. */
const NONCE = /^[0-9a-f]{10}$/;

export function newNonceKey(): string {
  return randomBytes(32).toString('hex');
}

export interface NonceSubject {
  /** The user's id; 0 for a visitor who is not signed in. */
  userId: number;
  /** The session the nonce belongs to (WordPress's session token); a nonce of another session does not verify. */
  session?: string;
}

function tick(nowMs: number, lifetime: number): number {
  return Math.ceil(nowMs / 1000 / (lifetime / 2));
}

function nonceAt(key: string, tickValue: number, subject: NonceSubject): string {
  const text = `${tickValue}|${ACTION}|${subject.userId}|${subject.session ?? ''}`;
  return createHmac('sha256', key).update(text).digest('hex').slice(-12, -2);
}

export function createNonce(key: string, subject: NonceSubject, nowMs: number, lifetime = DEFAULT_NONCE_LIFETIME): string {
  return nonceAt(key, tick(nowMs, lifetime), subject);
}

/** 1 when made in the current tick, 2 in the previous one, false otherwise (wp_verify_nonce). */
export function verifyNonce(
  key: string,
  nonce: unknown,
  subject: NonceSubject,
  nowMs: number,
  lifetime = DEFAULT_NONCE_LIFETIME,
): 1 | 2 | false {
  if (typeof nonce !== 'string' || !NONCE.test(nonce)) return false;
  const current = tick(nowMs, lifetime);
  const given = Buffer.from(nonce);
  if (timingSafeEqual(given, Buffer.from(nonceAt(key, current, subject)))) return 1;
  if (timingSafeEqual(given, Buffer.from(nonceAt(key, current - 1, subject)))) return 2;
  return false;
}
