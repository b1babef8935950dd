/** Metric bucket keys: the ISO-8601 UTC timestamp cut to 16 (minute), 13 (hour) or 10 (day) characters. */
export type BucketLength = 10 | 13 | 16;

export function normaliseBucketLength(substringLength: number): BucketLength {
  return substringLength === 16 || substringLength === 10 ? substringLength : 13;
}

export function bucketKey(at: Date, length: BucketLength): string {
  return at.toISOString().slice(0, length);
}

const STEP_MS: Record<BucketLength, number> = { 16: 60_000, 13: 3_600_000, 10: 86_400_000 };
const KEY_SUFFIX: Record<BucketLength, string> = { 16: ':00.000Z', 13: ':00:00.000Z', 10: 'T00:00:00.000Z' };

/** Every bucket key from the bucket holding `from` to the one holding `to`, ascending. */
export function bucketKeysBetween(from: Date, to: Date, length: BucketLength): string[] {
  const keys: string[] = [];
  let t = new Date(bucketKey(from, length) + KEY_SUFFIX[length]).getTime();
  for (; t <= to.getTime(); t += STEP_MS[length]) keys.push(bucketKey(new Date(t), length));
  return keys;
}
