import {
  createEnvelope,
  encodeEnvelope,
  type MessageContent,
  MessageType,
  NimBusError,
  NimBusErrorCode,
  type Transport,
  uuidv7,
} from '@nimbus/core';

/** Where a pending handoff lives: the handed-off message's identity. */
export interface HandoffCoordinates {
  readonly eventId: string;
  readonly sessionId: string;
  readonly messageId: string;
  readonly eventTypeId?: string | null;
  readonly correlationId?: string | null;
  readonly originatingMessageId?: string | null;
}

/**
 * Settles pending handoffs of one endpoint. The endpoint's engine resolves (or fails) the event and, on
 * completion, unblocks its session; the user handler is never run again.
 */
export class HandoffClient {
  constructor(
    readonly transport: Transport,
    readonly endpointId: string,
  ) {
    if (!transport)
      throw new NimBusError(NimBusErrorCode.InvalidArgument, 'HandoffClient needs a transport.');
    if (!endpointId?.trim())
      throw new NimBusError(NimBusErrorCode.InvalidArgument, 'HandoffClient needs an endpoint id.');
  }

  /** Reports the external work as done; `result` (string verbatim, else JSON) becomes the resolution content. */
  complete(coordinates: HandoffCoordinates, result?: unknown): Promise<void> {
    const eventTypeId = coordinates.eventTypeId ?? '';
    const content: MessageContent =
      result === undefined
        ? { eventContent: null, errorContent: null }
        : {
            eventContent: {
              eventTypeId,
              eventJson: typeof result === 'string' ? result : JSON.stringify(result),
            },
            errorContent: null,
          };
    return this.#send(MessageType.HandoffCompletedRequest, coordinates, content);
  }

  /** Reports the external work as failed; the operator's text reaches the Resolver verbatim. */
  fail(coordinates: HandoffCoordinates, errorText: string, errorType?: string | null): Promise<void> {
    if (!errorText?.trim())
      throw new NimBusError(NimBusErrorCode.InvalidArgument, 'HandoffClient.fail needs an error text.');
    return this.#send(MessageType.HandoffFailedRequest, coordinates, {
      eventContent: null,
      errorContent: {
        errorText,
        errorType: errorType ?? null,
        exceptionStackTrace: null,
        exceptionSource: null,
      },
    });
  }

  async #send(type: MessageType, c: HandoffCoordinates, content: MessageContent): Promise<void> {
    for (const field of ['eventId', 'sessionId', 'messageId'] as const) {
      if (!c?.[field]?.trim())
        throw new NimBusError(NimBusErrorCode.InvalidArgument, `Handoff coordinates need a ${field}.`);
    }
    const envelope = createEnvelope({
      messageId: uuidv7(),
      to: this.endpointId,
      from: 'Manager',
      sessionId: c.sessionId,
      correlationId: c.correlationId ?? null,
      messageType: type,
      eventId: c.eventId,
      eventTypeId: c.eventTypeId || null,
      parentMessageId: c.messageId,
      originatingMessageId: c.originatingMessageId || c.messageId,
      content,
    });
    await this.transport.publish([{ source: this.endpointId, messages: [encodeEnvelope(envelope)] }]);
  }
}

export function createHandoffClient(transport: Transport, endpointId: string): HandoffClient {
  return new HandoffClient(transport, endpointId);
}
