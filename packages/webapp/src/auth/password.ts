import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 64;
/** OWASP Password Storage Cheat Sheet: scrypt N=2^17, r=8, p=1 (128 MiB per hash). */
export const SCRYPT_COST = 2 ** 17;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
/** Refuse stored parameters beyond this, so a tampered hash cannot make a sign-in allocate gigabytes. */
const MAX_COST = 2 ** 20;

function derive(password: string, salt: Buffer, cost: number, blockSize: number, parallelism: number) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { N: cost, r: blockSize, p: parallelism, maxmem: 256 * cost * blockSize + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** `scrypt$N$r$p$salt$hash` with base64url parts; the parameters travel with the hash so they can change. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, SCRYPT_COST, BLOCK_SIZE, PARALLELISM);
  return [
    'scrypt',
    SCRYPT_COST,
    BLOCK_SIZE,
    PARALLELISM,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

function parse(stored: string) {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const cost = Number(n);
  const blockSize = Number(r);
  const parallelism = Number(p);
  if (![cost, blockSize, parallelism].every(Number.isSafeInteger) || cost > MAX_COST || blockSize > 32)
    return null;
  return { cost, blockSize, parallelism, salt, hash };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const expected = Buffer.from(parsed.hash, 'base64url');
  const actual = await derive(
    password,
    Buffer.from(parsed.salt, 'base64url'),
    parsed.cost,
    parsed.blockSize,
    parsed.parallelism,
  );
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A hash made with weaker parameters than today's: rehash it at the next successful sign-in. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return (
    !parsed || parsed.cost < SCRYPT_COST || parsed.blockSize < BLOCK_SIZE || parsed.parallelism < PARALLELISM
  );
}

let dummy: Promise<string> | null = null;

/** Computes the dummy hash ahead of the first sign-in of an unknown account (so that one is not slower). */
export function prepareDummyHash(): void {
  dummy ??= hashPassword(randomBytes(24).toString('base64url'));
}

/**
 * Checks a password against a hash of a random secret: unknown accounts cost the same scrypt work as real
 * ones, so response times do not tell which e-mails exist.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  prepareDummyHash();
  await verifyPassword(password, await dummy!);
  return false;
}
