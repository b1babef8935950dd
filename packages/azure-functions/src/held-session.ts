import type { ServiceBusReceivedMessage } from '@azure/service-bus';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import type { HeldSession } from '@nimbus/transport-azure-service-bus';

/**
 * What the Service Bus SDK binding (`@azure/functions-extensions-servicebus`, `ServiceBusMessageContext`) hands
 * a trigger: the delivered messages and the host's settlement actions. Declared here because that package's
 * published types point into its TypeScript sources.
 */
export interface ServiceBusBinding {
  readonly messages: ServiceBusReceivedMessage | ServiceBusReceivedMessage[];
  readonly actions: {
    complete(message: ServiceBusReceivedMessage): Promise<void>;
    abandon(message: ServiceBusReceivedMessage, propertiesToModify?: Uint8Array): Promise<void>;
    deadletter(
      message: ServiceBusReceivedMessage,
      propertiesToModify?: Uint8Array,
      deadletterReason?: string,
      deadletterErrorDescription?: string,
    ): Promise<void>;
    setSessionState(sessionId: string, sessionState: Uint8Array): Promise<void>;
    renewSessionLock(sessionId: string): Promise<Date>;
  };
}

/** Thrown for what the Functions host's settlement binding does not offer. */
export class FunctionsBindingError extends NimBusError<typeof NimBusErrorCode.NotSupported> {
  override readonly name = 'FunctionsBindingError';
  constructor(message: string) {
    super(NimBusErrorCode.NotSupported, message);
  }
}

/**
 * The session lease the Functions host holds, seen through its Service Bus SDK binding
 * (`@azure/functions-extensions-servicebus`): settlements and lock renewal go to the host over its settlement
 * channel. The binding reads no session state and cannot receive more messages, so the handle built on it keeps
 * the engine's state on the parked line (see docs/azure-functions.md) and gets the host's delivery only.
 */
export function heldSession(
  binding: ServiceBusBinding,
  sessionId: string,
  lockedUntil: Date | undefined,
): HeldSession {
  const { actions } = binding;
  const held = {
    sessionId,
    sessionLockedUntilUtc: lockedUntil,
    isClosed: false,
    async receiveMessages(): Promise<ServiceBusReceivedMessage[]> {
      return [];
    },
    async getSessionState(): Promise<never> {
      throw new FunctionsBindingError(
        `The Functions Service Bus binding cannot read the state of session '${sessionId}'; NimBus keeps it on the parked line.`,
      );
    },
    async setSessionState(state: unknown): Promise<void> {
      await actions.setSessionState(sessionId, state === null ? new Uint8Array() : (state as Uint8Array));
    },
    completeMessage: (message: ServiceBusReceivedMessage) => actions.complete(message),
    abandonMessage: (message: ServiceBusReceivedMessage) => actions.abandon(message),
    deadLetterMessage: (
      message: ServiceBusReceivedMessage,
      options?: { deadLetterReason?: string; deadLetterErrorDescription?: string },
    ) =>
      actions.deadletter(
        message,
        undefined,
        stringValue(options?.deadLetterReason),
        stringValue(options?.deadLetterErrorDescription),
      ),
    renewSessionLock: async () => dateOf(await actions.renewSessionLock(sessionId)),
    // The host owns the lease: giving up an invocation's handle leaves it with the host.
    async close(): Promise<void> {},
  };
  return held as unknown as HeldSession;
}

/**
 * The settlement channel declares the dead-letter reason and description as `google.protobuf.StringValue`; the
 * binding (0.2.0-preview) passes a plain string through, which its gRPC serializer refuses ("object expected").
 * The wrapper object is what the channel needs.
 */
function stringValue(text: string | undefined): string | undefined {
  return text === undefined ? undefined : ({ value: text } as unknown as string);
}

/** The binding resolves a renewal with the channel's `google.protobuf.Timestamp`, not a `Date`. */
function dateOf(value: unknown): Date {
  if (value instanceof Date) return value;
  const stamp = value as { seconds?: number | string; nanos?: number } | null;
  if (stamp && stamp.seconds !== undefined) {
    return new Date(Number(stamp.seconds) * 1000 + Math.floor((stamp.nanos ?? 0) / 1e6));
  }
  throw new FunctionsBindingError(`The host answered a session lock renewal with ${JSON.stringify(value)}.`);
}

/**
 * The binding decodes a JSON body into an object; NimBus reads the body as the text that was sent, which the
 * raw AMQP message still holds.
 */
export function withSentBody(message: ServiceBusReceivedMessage): ServiceBusReceivedMessage {
  const raw = message._rawAmqpMessage?.body as unknown;
  return Buffer.isBuffer(raw) || raw instanceof Uint8Array ? { ...message, body: Buffer.from(raw) } : message;
}
