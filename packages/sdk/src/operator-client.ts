import {
  Addresses,
  createEnvelope,
  EMPTY_CONTENT,
  encodeEnvelope,
  type MessageEnvelope,
  MessageType,
  NimBusError,
  NimBusErrorCode,
  type Transport,
  uuidv7,
} from '@nimbus/core';

export interface OperatorTarget {
  /** The endpoint whose event failed; by default derived from the failed message (see below). */
  readonly endpointId?: string;
}

/**
 * Operator actions as control messages (what the WebApp and the CLI send). Each goes to the endpoint's own
 * input with `From = Manager`, the failed event's EventId and SessionId, so the endpoint's engine acts on
 * it in order within the session.
 */
export class OperatorClient {
  constructor(readonly transport: Transport) {
    if (!transport)
      throw new NimBusError(NimBusErrorCode.InvalidArgument, 'OperatorClient needs a transport.');
  }

  /**
   * Runs the failed event's handler again, optionally with an edited payload (`eventJson`). An event that was
   * dead-lettered or unsupported left its session's order (later events went on), so resubmitting it runs it
   * after them: the endpoint refuses that unless `acknowledgeOutOfOrder` is `true`.
   */
  async resubmit(
    failed: MessageEnvelope,
    options: OperatorTarget & {
      readonly eventJson?: string;
      readonly acknowledgeOutOfOrder?: boolean;
    } = {},
  ): Promise<MessageEnvelope> {
    const eventTypeId = failed.eventTypeId ?? failed.content.eventContent?.eventTypeId ?? null;
    const eventJson = options.eventJson ?? failed.content.eventContent?.eventJson;
    if (!eventTypeId || eventJson === undefined) {
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        'resubmit needs the failed message with its event content (or an edited eventJson).',
      );
    }
    if (options.eventJson !== undefined) JSON.parse(options.eventJson); // refuse edited text that is not JSON
    return this.#send(
      failed,
      MessageType.ResubmissionRequest,
      options.endpointId,
      failed.correlationId,
      { eventContent: { eventTypeId, eventJson }, errorContent: null },
      options.acknowledgeOutOfOrder === true,
    );
  }

  /** Gives up on the failed event: the Resolver records it as skipped and its session moves on. */
  skip(failed: MessageEnvelope, options: OperatorTarget = {}): Promise<MessageEnvelope> {
    return this.#send(
      failed,
      MessageType.SkipRequest,
      options.endpointId,
      failed.correlationId,
      EMPTY_CONTENT,
    );
  }

  /** Lifts a session's block and replays what is parked behind it ("reprocess deferred"). */
  async reprocessDeferred(endpointId: string, sessionId: string): Promise<MessageEnvelope> {
    if (!endpointId?.trim() || !sessionId?.trim())
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        'reprocessDeferred needs an endpoint and a session id.',
      );
    const envelope = createEnvelope({
      messageId: uuidv7(),
      to: endpointId,
      from: Addresses.manager,
      sessionId,
      correlationId: uuidv7(),
      messageType: MessageType.ProcessDeferredRequest,
      eventId: uuidv7(),
    });
    await this.transport.publish([{ source: endpointId, messages: [encodeEnvelope(envelope)] }]);
    return envelope;
  }

  async #send(
    failed: MessageEnvelope,
    type: MessageType,
    endpointId: string | undefined,
    correlationId: string | null,
    content: MessageEnvelope['content'],
    acknowledgeOutOfOrder = false,
  ): Promise<MessageEnvelope> {
    if (!failed?.eventId || !failed.sessionId)
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        `${type} needs the failed message's EventId and SessionId.`,
      );
    const target = endpointId ?? targetEndpointOf(failed);
    const envelope = createEnvelope({
      messageId: uuidv7(),
      to: target,
      from: Addresses.manager,
      sessionId: failed.sessionId,
      correlationId,
      messageType: type,
      eventId: failed.eventId,
      eventTypeId: failed.eventTypeId ?? failed.content.eventContent?.eventTypeId ?? null,
      parentMessageId: failed.messageId,
      originatingMessageId:
        failed.originatingMessageId && failed.originatingMessageId.toLowerCase() !== Addresses.self
          ? failed.originatingMessageId
          : failed.messageId,
      content,
      acknowledgeOutOfOrder,
    });
    await this.transport.publish([{ source: target, messages: [encodeEnvelope(envelope)] }]);
    return envelope;
  }
}

/** A response was sent by the endpoint (`From`); a request was addressed to it (`To`). */
function targetEndpointOf(failed: MessageEnvelope): string {
  const target = failed.to === Addresses.resolver ? failed.from : failed.to;
  if (!target)
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      'Cannot tell which endpoint the failed message belongs to; pass endpointId.',
    );
  return target;
}

export function createOperatorClient(transport: Transport): OperatorClient {
  return new OperatorClient(transport);
}
