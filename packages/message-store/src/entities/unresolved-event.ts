import type { MessageContent, MessageType } from '@nimbus/core';
import type { EndpointRole, ResolutionStatus } from '../enums.js';
import type { RetryState } from './retry-state.js';

/**
 * The resolver state row: one per (endpointId, eventId, sessionId).
 * Optional strings are `null` when absent; `""` is a real value and round-trips as `""`.
 */
export interface UnresolvedEvent {
  /** Set by the store from its clock on every write. */
  readonly updatedAt: Date;
  readonly enqueuedTimeUtc: Date;
  readonly eventId: string;
  /** Part of the key; a message without a session uses `""`. */
  readonly sessionId: string;
  readonly correlationId: string | null;
  /** Always the stored status (the one named by the upload method). */
  readonly resolutionStatus: ResolutionStatus;
  readonly endpointRole: EndpointRole;
  readonly endpointId: string;
  readonly retryCount: number | null;
  readonly retryLimit: number | null;
  /** Set on a Failed row the retry policy will retry (see {@link RetryState}); null otherwise. */
  readonly retry: RetryState | null;
  /** The type of the message that produced this write (read by the stale-write guard). */
  readonly messageType: MessageType;
  readonly deadLetterReason: string | null;
  readonly deadLetterErrorDescription: string | null;
  /** Id of the message that produced this write. */
  readonly lastMessageId: string | null;
  readonly originatingMessageId: string | null;
  /** Id of the message this one answers (read by the stale-write guard). */
  readonly parentMessageId: string | null;
  readonly reason: string | null;
  readonly originatingFrom: string | null;
  readonly eventTypeId: string | null;
  readonly to: string | null;
  readonly from: string | null;
  readonly messageContent: MessageContent;
  readonly queueTimeMs: number | null;
  readonly processingTimeMs: number | null;
  /** null, or `"Handoff"` while the event waits for external work. */
  readonly pendingSubStatus: string | null;
  readonly handoffReason: string | null;
  readonly externalJobId: string | null;
  readonly expectedBy: Date | null;
  readonly cloudEventId: string | null;
  readonly cloudEventSource: string | null;
  readonly cloudEventType: string | null;
  readonly cloudEventSubject: string | null;
}

/** Fields the store owns on a status write: the key comes from the arguments, the rest from the store. */
type StoreOwnedField = 'updatedAt' | 'resolutionStatus' | 'eventId' | 'sessionId' | 'endpointId';

/**
 * What a caller passes to a status upload. Omitted optional fields are stored as null,
 * `endpointRole` defaults to Subscriber and `messageContent` to empty content.
 * A full `UnresolvedEvent` read back from the store is accepted as is.
 */
export type UnresolvedEventWrite = Pick<UnresolvedEvent, 'enqueuedTimeUtc' | 'messageType'> &
  Partial<Omit<UnresolvedEvent, StoreOwnedField | 'enqueuedTimeUtc' | 'messageType'>>;
