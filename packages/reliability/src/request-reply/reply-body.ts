import { jsonDepth, MAX_PAYLOAD_DEPTH } from '@nimbus/core';
import { InvalidReplyError } from './errors.js';

/**
 * Reads the body of a success reply. The depth is measured on the text before parsing, as the SDK does for
 * event payloads, so a hostile reply is refused without being parsed. `JSON.parse` only builds plain objects:
 * type metadata such as `$type`, `constructor` or `__proto__` stays ordinary data and selects no class.
 * An empty body means the responder returned nothing (`null`).
 */
export function readReplyBody(body: string, requestMessageId: string): unknown {
  if (body === '') return null;
  if (jsonDepth(body) > MAX_PAYLOAD_DEPTH) {
    throw new InvalidReplyError(
      `The reply to request ${requestMessageId} is nested deeper than ${MAX_PAYLOAD_DEPTH} levels; it is refused unread`,
      requestMessageId,
    );
  }
  try {
    return JSON.parse(body);
  } catch (error) {
    throw new InvalidReplyError(
      `The reply to request ${requestMessageId} is not valid JSON: ${(error as Error).message}`,
      requestMessageId,
      { cause: error },
    );
  }
}
