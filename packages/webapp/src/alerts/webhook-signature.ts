import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-nimbus-signature';
export const TIMESTAMP_HEADER = 'x-nimbus-timestamp';
export const DELIVERY_HEADER = 'x-nimbus-delivery';
/** A receiver should refuse bodies signed longer ago than this (replays). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** `v1=<hex HMAC-SHA256 of "<timestamp>.<body>" with the shared secret>`. */
export function signAlertBody(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * What a webhook receiver runs: true when `signature` is the body's signature with `secret` and the
 * timestamp is within {@link SIGNATURE_TOLERANCE_SECONDS} of `nowSeconds`. Compares in constant time.
 */
export function verifyAlertSignature(
  secret: string,
  timestampHeader: string,
  body: string,
  signature: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const timestamp = Number(timestampHeader);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS)
    return false;
  const expected = Buffer.from(signAlertBody(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
