import type { MessageEntity } from '@nimbus/message-store';
import { encodeId } from './layout.js';

/** A history record in the `messages` container (partition `/eventId`, id = the message id). */
export interface MessageDocument extends Omit<MessageEntity, 'enqueuedTimeUtc' | 'expectedBy'> {
  readonly id: string;
  readonly enqueuedTimeUtc: string;
  readonly expectedBy: string | null;
  readonly seq: number;
  readonly ttl: number;
  readonly expiresAt: number;
}

export function toMessageDocument(
  entity: MessageEntity,
  seq: number,
  ttl: number,
  expiresAt: number,
): MessageDocument {
  return {
    ...entity,
    id: encodeId(entity.messageId),
    enqueuedTimeUtc: entity.enqueuedTimeUtc.toISOString(),
    expectedBy: entity.expectedBy?.toISOString() ?? null,
    seq,
    ttl,
    expiresAt,
  };
}

export function fromMessageDocument(doc: MessageDocument): MessageEntity {
  const {
    id: _id,
    seq: _seq,
    ttl: _ttl,
    expiresAt: _expiresAt,
    ...fields
  } = doc as MessageDocument & Record<string, unknown>;
  for (const key of Object.keys(fields))
    if (key.startsWith('_')) delete (fields as Record<string, unknown>)[key];
  return {
    ...(fields as unknown as MessageEntity),
    enqueuedTimeUtc: new Date(doc.enqueuedTimeUtc),
    expectedBy: doc.expectedBy === null ? null : new Date(doc.expectedBy),
  };
}
