import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const defaults = { N: 16_384, r: 8, p: 1, keyLength: 32 };

function derive(password: string, salt: Buffer, N: number, r: number, p: number, length: number) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, length, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * Hashes a password with scrypt (memory-hard): `scrypt$N$r$p$salt$hash`, base64url parts.
 *
 * @example
 * const stored = await hashPassword('correct horse battery staple');
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, defaults.N, defaults.r, defaults.p, defaults.keyLength);
  return `scrypt$${defaults.N}$${defaults.r}$${defaults.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/**
 * Checks a password against a stored hash in constant time; false for a malformed hash.
 *
 * @example
 * if (await verifyPassword(input, user.passwordHash)) login(user);
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every(Number.isSafeInteger) || N > 1_048_576 || r > 32 || p > 16) return false;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (expected.length < 16 || expected.length > 128) return false;
  const actual = await derive(password.slice(0, 1024), salt, N, r, p, expected.length);
  return timingSafeEqual(actual, expected);
}
