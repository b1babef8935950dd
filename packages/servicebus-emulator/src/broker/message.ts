// The part of a rhea message the broker reads and keeps; everything else is carried through untouched.
export interface AmqpMessage {
  message_id?: unknown;
  group_id?: string;
  correlation_id?: unknown;
  to?: string;
  subject?: string;
  reply_to?: string;
  reply_to_group_id?: string;
  content_type?: string;
  ttl?: number;
  delivery_count?: number;
  application_properties?: Record<string, unknown>;
  message_annotations?: Record<string, unknown>;
  body?: unknown;
  [field: string]: unknown;
}

export type EntryState = 'active' | 'deferred';

/** One message as held by one queue (a subscription or its dead-letter sub-queue). */
export interface Entry {
  readonly sequence: number;
  readonly message: AmqpMessage;
  readonly sessionId: string | null;
  readonly enqueuedAt: number;
  readonly size: number;
  /** When its time to live ends (ms since the epoch; Infinity: never). */
  readonly expiresAt: number;
  /** Deliveries that ended without a settlement (abandon, lock expiry) or with a dead-letter. */
  deliveryCount: number;
  state: EntryState;
  lock: MessageLock | null;
}

export interface MessageLock {
  readonly token: string;
  readonly holder: object;
  until: number;
  timer: NodeJS.Timeout | null;
}

/** Rough bytes of a message, counted against the namespace's memory budget. */
export function messageSize(message: AmqpMessage): number {
  let size = 64;
  const body = message.body as { content?: unknown } | unknown;
  if (Buffer.isBuffer(body)) size += body.length;
  else if (typeof body === 'string') size += Buffer.byteLength(body);
  else if (body && typeof body === 'object' && Buffer.isBuffer((body as { content?: unknown }).content)) {
    size += ((body as { content: Buffer }).content as Buffer).length;
  } else if (body !== undefined) size += Buffer.byteLength(JSON.stringify(body) ?? '');
  for (const [key, value] of Object.entries(message.application_properties ?? {})) {
    size += key.length + String(value).length;
  }
  return size;
}

/** A copy with its own property maps, so SET actions and annotations never leak between subscriptions. */
export function copyMessage(message: AmqpMessage): AmqpMessage {
  return {
    ...message,
    application_properties: { ...(message.application_properties ?? {}) },
    message_annotations: { ...(message.message_annotations ?? {}) },
  };
}

/** The copy that lands in a dead-letter sub-queue: reason and description as application properties. */
export function deadLetterCopy(
  message: AmqpMessage,
  source: string,
  reason: string | undefined,
  description: string | undefined,
  extra?: Record<string, unknown>,
): AmqpMessage {
  return {
    ...message,
    application_properties: {
      ...message.application_properties,
      ...extra,
      ...(reason !== undefined ? { DeadLetterReason: reason } : {}),
      ...(description !== undefined ? { DeadLetterErrorDescription: description } : {}),
    },
    message_annotations: { ...message.message_annotations, 'x-opt-deadletter-source': source },
  };
}
