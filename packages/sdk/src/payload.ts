import { PermanentFailureError } from '@nimbus/core';

/** Deepest nesting of objects and arrays a payload may have; deeper payloads are refused unparsed. */
export const MAX_PAYLOAD_DEPTH = 32;

/**
 * Nesting depth of a JSON text (`{}` and `[]` count one level each; a scalar is 0), found by scanning the
 * text, so a hostile payload is measured without being parsed. Stops counting once past `limit`.
 */
export function jsonDepth(text: string, limit = MAX_PAYLOAD_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    }
  }
  return deepest;
}

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
