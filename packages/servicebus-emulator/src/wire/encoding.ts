import { randomBytes } from 'node:crypto';

// Wire encodings the Azure SDKs expect from a Service Bus namespace.

/** .NET ticks (100 ns since 0001-01-01) of the Unix epoch. */
const EPOCH_TICKS = 621_355_968_000_000_000n;

/** A time as .NET ticks in an 8-byte big-endian buffer (how `com.microsoft:locked-until-utc` is read). */
export function ticksBuffer(epochMs: number): Buffer {
  const ticks = EPOCH_TICKS + BigInt(Math.trunc(epochMs)) * 10_000n;
  const buffer = Buffer.alloc(8);
  buffer.writeBigInt64BE(ticks);
  return buffer;
}

/** A sequence number as the 8-byte big-endian buffer the SDK reads into a `Long`. */
export function longBuffer(value: number): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeBigInt64BE(BigInt(value));
  return buffer;
}

/** Reads an AMQP long the way rhea hands it over: a number, a bigint or an 8-byte buffer. */
export function readLong(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (Buffer.isBuffer(value) && value.length === 8) return Number(value.readBigInt64BE());
  throw new TypeError(`expected an AMQP long, got ${String(value)}`);
}

/** Swaps a GUID between RFC 4122 and .NET byte order (the same swap both ways). */
export function swapGuidBytes(bytes: Buffer): Buffer {
  return Buffer.from([
    bytes[3]!,
    bytes[2]!,
    bytes[1]!,
    bytes[0]!,
    bytes[5]!,
    bytes[4]!,
    bytes[7]!,
    bytes[6]!,
    ...bytes.subarray(8, 16),
  ]);
}

export function guidString(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A fresh lock token: the delivery tag in .NET byte order and the string the SDK derives from it (it swaps the
 * bytes back before printing, and sends the swapped bytes in `$management` requests).
 */
export function newLockToken(): { tag: Buffer; token: string } {
  const canonical = randomBytes(16);
  return { tag: swapGuidBytes(canonical), token: guidString(canonical) };
}

/** The lock-token string of a uuid sent in a `$management` request body. */
export function lockTokenOf(value: unknown): string {
  if (Buffer.isBuffer(value) && value.length === 16) return guidString(value);
  if (typeof value === 'string') return value.toLowerCase();
  throw new TypeError('lock token must be a uuid');
}
