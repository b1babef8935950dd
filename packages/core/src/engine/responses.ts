import { createEnvelope, type MessageEnvelope } from '../envelope/envelope.js';
import { EMPTY_CONTENT, type ErrorContent, type MessageContent } from '../envelope/message-content.js';
import { MessageType } from '../envelope/message-type.js';
import { errorMessage, errorTypeName, fullErrorText } from '../errors/cause-chain.js';
import { uuidv7 } from '../ids.js';
import { Addresses, HEARTBEAT_EVENT_TYPE_ID } from '../platform/reserved.js';
import { activeTraceFields } from '../telemetry/trace-context.js';
import type { PendingHandoff } from './handler-context.js';

/** The lineage origin of a message derived from `inbound`: its own origin, or itself when it is the first. */
export function originatingOf(inbound: MessageEnvelope): string {
  const origin = inbound.originatingMessageId;
  return !origin || origin.toLowerCase() === Addresses.self ? inbound.messageId : origin;
}

/** The reason (error text) of the `SkipResponse` that answers an inbox duplicate. */
export const DUPLICATE_DETECTED = 'DuplicateDetected';

/** The error type of a `RefusalResponse`. */
export const CONTROL_REQUEST_REFUSED = 'ControlRequestRefused';

export interface ResponseClock {
  now(): number;
}

/**
 * Builds every message the engine emits, stamped with the active span's trace context. Unlike the original, the business correlation id is preserved on
 * every derived message; the parent pointer lives in `parentMessageId`.
 */
export class ResponseBuilder {
  constructor(
    readonly endpointId: string,
    readonly clock: ResponseClock,
    readonly sdkVersion: string,
  ) {}

  #derived(
    inbound: MessageEnvelope,
    type: MessageType,
    to: string,
    content: MessageContent,
    startedAt: number | null,
  ) {
    return createEnvelope({
      messageId: uuidv7(this.clock.now()),
      to,
      from: this.endpointId,
      sessionId: inbound.sessionId,
      correlationId: inbound.correlationId,
      messageType: type,
      eventId: inbound.eventId,
      eventTypeId: inbound.eventTypeId,
      parentMessageId: inbound.messageId,
      originatingMessageId: originatingOf(inbound),
      originatingFrom: inbound.from ?? Addresses.self,
      retryCount: inbound.retryCount ?? 0,
      queueTimeMs: inbound.queueTimeMs,
      processingTimeMs: startedAt === null ? null : Math.max(0, this.clock.now() - startedAt),
      content,
      // Everything the engine emits continues the trace of the span handling the inbound message.
      ...activeTraceFields(),
    });
  }

  #toResolver(
    inbound: MessageEnvelope,
    type: MessageType,
    content: MessageContent,
    startedAt: number | null,
  ) {
    return this.#derived(inbound, type, Addresses.resolver, content, startedAt);
  }

  #eventOnly(inbound: MessageEnvelope, errorContent: ErrorContent | null = null): MessageContent {
    return { eventContent: inbound.content.eventContent, errorContent };
  }

  resolution(inbound: MessageEnvelope, startedAt: number | null, content?: MessageContent): MessageEnvelope {
    return this.#toResolver(inbound, MessageType.ResolutionResponse, content ?? inbound.content, startedAt);
  }

  skip(inbound: MessageEnvelope, startedAt: number | null): MessageEnvelope {
    return this.#toResolver(inbound, MessageType.SkipResponse, EMPTY_CONTENT, startedAt);
  }

  /** The inbox found the message already handled at this endpoint. */
  duplicate(inbound: MessageEnvelope, startedAt: number | null): MessageEnvelope {
    return this.#toResolver(
      inbound,
      MessageType.SkipResponse,
      this.#eventOnly(inbound, errorOf(DUPLICATE_DETECTED, null)),
      startedAt,
    );
  }

  discard(inbound: MessageEnvelope, error: unknown, classifierName: string, startedAt: number | null) {
    const text = `${errorTypeName(error)}: ${errorMessage(error)} Classified as Discard by ${classifierName}.`;
    return this.#toResolver(
      inbound,
      MessageType.SkipResponse,
      this.#eventOnly(inbound, errorOf(text, errorTypeName(error))),
      startedAt,
    );
  }

  /** The engine refused an operator request; `reason` says why (history and audit show it). */
  refusal(inbound: MessageEnvelope, reason: string, startedAt: number | null): MessageEnvelope {
    return this.#toResolver(
      inbound,
      MessageType.RefusalResponse,
      this.#eventOnly(inbound, errorOf(reason, CONTROL_REQUEST_REFUSED)),
      startedAt,
    );
  }

  unsupported(inbound: MessageEnvelope, startedAt: number | null): MessageEnvelope {
    return this.#toResolver(inbound, MessageType.UnsupportedResponse, inbound.content, startedAt);
  }

  error(inbound: MessageEnvelope, error: unknown, startedAt: number | null): MessageEnvelope {
    const content = this.#eventOnly(inbound, {
      errorText: errorMessage(error),
      errorType: errorTypeName(error),
      exceptionStackTrace: error instanceof Error ? (error.stack ?? null) : null,
      exceptionSource: null,
    });
    return this.#toResolver(inbound, MessageType.ErrorResponse, content, startedAt);
  }

  /** Tells the Resolver that the message was dead-lettered, with the reason and a readable description. */
  deadLetterNotice(inbound: MessageEnvelope, reason: string, error: unknown, startedAt: number | null) {
    const base =
      error === undefined || error === null
        ? this.#toResolver(
            inbound,
            MessageType.ErrorResponse,
            this.#eventOnly(inbound, errorOf(reason, null)),
            startedAt,
          )
        : this.error(inbound, error, startedAt);
    return {
      ...base,
      deadLetterReason: reason,
      deadLetterErrorDescription: error === undefined || error === null ? reason : fullErrorText(error),
    };
  }

  deferral(inbound: MessageEnvelope, blockedBy: string | null): MessageEnvelope {
    const text = blockedBy
      ? `Session ${inbound.sessionId} is blocked by ${blockedBy}`
      : `Session ${inbound.sessionId} is replaying parked messages`;
    return this.#toResolver(
      inbound,
      MessageType.DeferralResponse,
      this.#eventOnly(inbound, errorOf(text, 'SessionBlocked')),
      null,
    );
  }

  pendingHandoff(
    inbound: MessageEnvelope,
    handoff: PendingHandoff,
    startedAt: number | null,
  ): MessageEnvelope {
    return {
      ...this.#toResolver(inbound, MessageType.PendingHandoffResponse, inbound.content, startedAt),
      handoffReason: handoff.reason,
      externalJobId: handoff.externalJobId ?? null,
      expectedBy: handoff.expectedBy ?? null,
    };
  }

  /** A retry of `inbound`, addressed to `Retry` so that routing brings it back to this endpoint's input. */
  retryRequest(inbound: MessageEnvelope): MessageEnvelope {
    return {
      ...this.#derived(inbound, MessageType.RetryRequest, Addresses.retry, inbound.content, null),
      retryCount: (inbound.retryCount ?? 0) + 1,
    };
  }

  /** Answers a heartbeat probe; `From` is the probed endpoint and the payload carries the timestamps. */
  heartbeat(inbound: MessageEnvelope, startedAt: number | null): MessageEnvelope {
    const now = new Date(this.clock.now()).toISOString();
    let probe: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(inbound.content.eventContent?.eventJson ?? '');
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        probe = parsed as Record<string, unknown>;
    } catch {
      // A blank or malformed probe is still answered, with a fresh payload.
    }
    const payload = {
      forwardSendTime: null,
      backwardReceivedTime: null,
      ...probe,
      forwardReceivedTime: now,
      backwardSendTime: now,
      endpoint: inbound.to,
      sdkVersion: this.sdkVersion,
    };
    return {
      ...this.#toResolver(
        inbound,
        MessageType.ResolutionResponse,
        {
          eventContent: { eventTypeId: HEARTBEAT_EVENT_TYPE_ID, eventJson: JSON.stringify(payload) },
          errorContent: null,
        },
        startedAt,
      ),
      from: inbound.to,
      eventTypeId: HEARTBEAT_EVENT_TYPE_ID,
    };
  }
}

function errorOf(text: string, type: string | null): ErrorContent {
  return { errorText: text, errorType: type, exceptionStackTrace: null, exceptionSource: null };
}
