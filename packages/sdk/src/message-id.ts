import { createHash } from 'node:crypto';

/**
 * The default message id of a typed publish: `{EventTypeId}-{16 hex digits}` from a hash of the event JSON,
 * so identical payloads get identical ids (and an inbox can drop the repeat). SHA-256 is used here; ids are
 * therefore not byte-compatible with the .NET original's xxHash64.
 */
export function deterministicMessageId(eventTypeId: string, eventJson: string): string {
  const hash = createHash('sha256').update(eventJson, 'utf8').digest('hex').slice(0, 16);
  return `${eventTypeId}-${hash}`;
}
