import { jsonDepth, MAX_PAYLOAD_DEPTH, PermanentFailureError } from '@nimbus/core';

/**
 * Reads an event payload before any handler sees it. Missing, literal `null`, malformed or deeper than
 * {@link MAX_PAYLOAD_DEPTH} payloads are permanent failures (dead-lettered with a reason naming the event
 * type). `JSON.parse` only ever builds plain objects, arrays and scalars: keys such as `$type`,
 * `constructor` or `__proto__` stay ordinary data and never select a class or a prototype.
 */
export function readEventJson(eventTypeId: string, eventJson: string | null | undefined): unknown {
  if (eventJson === undefined || eventJson === null || eventJson.trim() === '') {
    throw new PermanentFailureError(`The '${eventTypeId}' message carries no payload.`);
  }
  const depth = jsonDepth(eventJson);
  if (depth > MAX_PAYLOAD_DEPTH) {
    throw new PermanentFailureError(
      `The '${eventTypeId}' payload is nested deeper than ${MAX_PAYLOAD_DEPTH} levels; it is refused unread.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(eventJson);
  } catch (error) {
    throw new PermanentFailureError(
      `The '${eventTypeId}' payload is not valid JSON: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (parsed === null) throw new PermanentFailureError(`The '${eventTypeId}' payload is null.`);
  return parsed;
}
