import type { MessageContent } from './message-content.js';
import type { MessageType } from './message-type.js';

/**
 * The logical NimBus message: identity, addressing, lineage and content.
 * `null` means absent; lineage fields use `'self'` for the first message of a lineage.
 */
export interface MessageEnvelope {
  readonly messageId: string;
  readonly to: string;
  readonly from: string | null;
  readonly sessionId: string;
  readonly correlationId: string | null;
  readonly messageType: MessageType;
  readonly eventId: string | null;
  readonly eventTypeId: string | null;
  readonly parentMessageId: string;
  readonly originatingMessageId: string;
  readonly originatingFrom: string;
  readonly retryCount: number | null;
  /**
   * On an `ErrorResponse` whose failure the retry policy will retry: the policy's `maxRetries`, and when the
   * scheduled `RetryRequest` is due. Both null on a failure that will not be retried (exhausted or no policy).
   */
  readonly retryLimit: number | null;
  readonly nextRetryAt: Date | null;
  readonly originalSessionId: string | null;
  readonly deferralSequence: number | null;
  readonly replyTo: string | null;
  readonly replyToSessionId: string | null;
  readonly queueTimeMs: number | null;
  readonly processingTimeMs: number | null;
  readonly deadLetterReason: string | null;
  readonly deadLetterErrorDescription: string | null;
  readonly handoffReason: string | null;
  readonly externalJobId: string | null;
  readonly expectedBy: Date | null;
  readonly throttleRetryCount: number | null;
  readonly traceParent: string | null;
  readonly traceState: string | null;
  /**
   * On a `ResubmissionRequest`: the operator confirmed that the event may run after later events of its
   * session (it was dead-lettered or unsupported and the session went on without it). `false` by default.
   */
  readonly acknowledgeOutOfOrder: boolean;
  readonly content: MessageContent;
}

export type EnvelopeInit = Pick<MessageEnvelope, 'messageId' | 'to' | 'sessionId' | 'messageType'> &
  Partial<MessageEnvelope>;

/** Builds a complete envelope, filling every optional field with its documented default. */
export function createEnvelope(init: EnvelopeInit): MessageEnvelope {
  return {
    from: null,
    correlationId: null,
    eventId: null,
    eventTypeId: init.content?.eventContent?.eventTypeId ?? null,
    parentMessageId: 'self',
    originatingMessageId: 'self',
    originatingFrom: 'self',
    retryCount: 0,
    retryLimit: null,
    nextRetryAt: null,
    originalSessionId: null,
    deferralSequence: null,
    replyTo: null,
    replyToSessionId: null,
    queueTimeMs: null,
    processingTimeMs: null,
    deadLetterReason: null,
    deadLetterErrorDescription: null,
    handoffReason: null,
    externalJobId: null,
    expectedBy: null,
    throttleRetryCount: null,
    traceParent: null,
    traceState: null,
    acknowledgeOutOfOrder: false,
    content: { eventContent: null, errorContent: null },
    ...init,
  };
}
