// The payload-depth rule every reader of untrusted JSON applies before parsing (the SDK for event payloads,
// request/reply for reply bodies).

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
