import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { ApplicationPasswordRecord } from '../store/records.js';

/*
 * Application passwords are 24 random alphanumerics (~143 bits), so a salted SHA-256 is as safe as a slow
 * hash here and keeps authenticated requests fast (WordPress 6.8 made the same choice with BLAKE2b).
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SCHEME = 'sha256';

function generateApplicationPassword(): string {
  let out = '';
  for (let i = 0; i < 24; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** WordPress accepts the password with or without the spaces it shows it with. */
function normalizeApplicationPassword(input: string): string {
  return input.replace(/[^a-z\d]/gi, '');
}

/** `abcd efgh ijkl …`, the way WordPress displays a new application password. */
export function chunkApplicationPassword(password: string): string {
  return normalizeApplicationPassword(password).replace(/(.{4})(?!$)/g, '$1 ');
}

function digest(salt: string, password: string): Buffer {
  return createHash('sha256').update(salt).update('\0').update(password).digest();
}

export function hashApplicationPassword(password: string): string {
  const salt = randomBytes(16).toString('base64url');
  return `${SCHEME}$${salt}$${digest(salt, normalizeApplicationPassword(password)).toString('hex')}`;
}

export function verifyApplicationPassword(password: string, stored: string): boolean {
  const [scheme, salt, hex] = stored.split('$');
  if (scheme !== SCHEME || !salt || !hex) return false;
  const expected = Buffer.from(hex, 'hex');
  const actual = digest(salt, normalizeApplicationPassword(password));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export function newApplicationPasswordRecord(
  userId: number,
  name: string,
  nowSeconds: number,
  chosen?: string,
): { password: string; record: ApplicationPasswordRecord } {
  const password = chosen ?? generateApplicationPassword();
  if (!normalizeApplicationPassword(password)) throw new Error('An application password needs letters or digits.');
  return {
    password,
    record: {
      uuid: randomUUID(),
      userId,
      name,
      passwordHash: hashApplicationPassword(password),
      created: nowSeconds,
      lastUsed: null,
      lastIp: null,
    },
  };
}
