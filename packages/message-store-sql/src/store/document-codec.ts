import { NimBusError, NimBusErrorCode } from '@nimbus/core';

/*
 * Whole entities are stored as JSON text. `Date` values are tagged so they read back as `Date`
 * (plain JSON would turn them into strings); everything else, null and "" included, round-trips as is.
 */

const DATE_TAG = '$date';

export function encodeDocument(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, encoded: unknown) {
    const original = this[key];
    return original instanceof Date ? { [DATE_TAG]: original.getTime() } : encoded;
  });
}

export function decodeDocument<T>(json: string): T {
  return JSON.parse(json, (_key, value: unknown) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const tagged = value as Record<string, unknown>;
      const keys = Object.keys(tagged);
      if (keys.length === 1 && keys[0] === DATE_TAG && typeof tagged[DATE_TAG] === 'number') {
        return new Date(tagged[DATE_TAG]);
      }
    }
    return value;
  }) as T;
}

export function toMs(date: Date): number {
  const ms = date.getTime();
  if (Number.isNaN(ms))
    throw new NimBusError(NimBusErrorCode.InvalidArgument, 'Invalid Date given to the message store.');
  return ms;
}

export function toMsOrNull(date: Date | null | undefined): number | null {
  return date == null ? null : toMs(date);
}

export function toDateOrNull(ms: number | null): Date | null {
  return ms === null ? null : new Date(ms);
}
