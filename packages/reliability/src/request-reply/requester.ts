import {
  type Clock,
  createEnvelope,
  type EventType,
  encodeEnvelope,
  Header,
  isTransportError,
  MessageType,
  NimBusError,
  NimBusErrorCode,
  type ReceivedMessage,
  replyInputOf,
  resolveSessionId,
  type SessionHandle,
  systemClock,
  type Transport,
  TransportErrorCode,
  uuidv7,
  validateEvent,
} from '@nimbus/core';
import { RequestReplyConfigurationError, RequestReplyError, RequestTimeoutError } from './errors.js';
import { readReplyBody } from './reply-body.js';
import { ReplyStatus } from './reply-headers.js';

/** Checks and types the reply body; a zod schema fits (`{ parse }`). */
export interface ReplyContract<R> {
  parse(value: unknown): R;
}

export interface RequesterOptions {
  readonly transport: Transport;
  /** The requesting endpoint: requests go out on its topic, replies come back on `{endpoint}-reply`. */
  readonly endpoint: string;
  /** Default 30 000 ms. */
  readonly defaultTimeoutMs?: number;
  readonly clock?: Clock;
}

export interface RequestOptions<R> {
  readonly reply?: ReplyContract<R>;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly sessionId?: string;
  readonly correlationId?: string;
}

export interface Requester {
  readonly endpoint: string;
  /** Sends `payload` as an `EventRequest` of `type` and resolves with the typed reply. */
  request<T, R = unknown>(type: EventType<T>, payload: T, options?: RequestOptions<R>): Promise<R>;
}

const TIMED_OUT: unique symbol = Symbol('timedOut');

export function createRequester(options: RequesterOptions): Requester {
  if (!options?.transport) throw new RequestReplyConfigurationError('createRequester needs a transport');
  if (typeof options.endpoint !== 'string' || options.endpoint.length === 0) {
    throw new RequestReplyConfigurationError(
      'createRequester needs the requesting endpoint id: replies are received on {endpoint}-reply',
    );
  }
  const { transport, endpoint } = options;
  const clock = options.clock ?? systemClock;
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 30_000;
  const replyInput = replyInputOf(endpoint);

  return {
    endpoint,
    async request<T, R>(type: EventType<T>, payload: T, requestOptions: RequestOptions<R> = {}): Promise<R> {
      const timeoutMs = requestOptions.timeoutMs ?? defaultTimeoutMs;
      if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
        throw new NimBusError(
          NimBusErrorCode.InvalidArgument,
          `request timeoutMs must be a positive number, got ${String(timeoutMs)}`,
        );
      }
      requestOptions.signal?.throwIfAborted();
      const value = validateEvent(type, payload);
      const replyToSessionId = uuidv7(clock.now());
      const messageId = uuidv7(clock.now());
      const message = encodeEnvelope(
        createEnvelope({
          messageId,
          to: type.id,
          sessionId: resolveSessionId(type, value, requestOptions.sessionId),
          correlationId: requestOptions.correlationId ?? messageId,
          messageType: MessageType.EventRequest,
          eventTypeId: type.id,
          originatingFrom: endpoint,
          replyTo: endpoint,
          replyToSessionId,
          content: {
            eventContent: { eventTypeId: type.id, eventJson: JSON.stringify(value) },
            errorContent: null,
          },
        }),
      );
      const describe = { eventTypeId: type.id, messageId, replyToSessionId };
      const deadline = clock.now() + timeoutMs;
      const stop = new AbortController();
      const onCallerAbort = () => stop.abort(requestOptions.signal?.reason);
      requestOptions.signal?.addEventListener('abort', onCallerAbort, { once: true });
      const timer: Promise<typeof TIMED_OUT> = clock.sleep(timeoutMs, stop.signal).then(() => TIMED_OUT);
      let session: SessionHandle | null = null;
      try {
        await transport.publish([{ source: endpoint, messages: [message] }]).catch((error: unknown) => {
          if (!isTransportError(error, TransportErrorCode.EntityNotFound)) throw error;
          throw new RequestReplyConfigurationError(
            `The reply input ${replyInput} does not exist; apply the topology for endpoint ${endpoint} first (${(error as Error).message})`,
          );
        });
        const accepted = await Promise.race([
          transport.acceptSession(replyInput, {
            sessionId: replyToSessionId,
            waitMs: timeoutMs,
            signal: stop.signal,
          }),
          timer,
        ]).catch((error: unknown) => {
          if (isTransportError(error, TransportErrorCode.EntityNotFound)) {
            throw new RequestReplyConfigurationError(
              `The reply input ${replyInput} does not exist; apply the topology for endpoint ${endpoint} first`,
              { cause: error },
            );
          }
          throw error;
        });
        requestOptions.signal?.throwIfAborted();
        if (accepted === TIMED_OUT || accepted === null) throw new RequestTimeoutError(describe, timeoutMs);
        session = accepted;
        const received: ReceivedMessage[] | typeof TIMED_OUT = await Promise.race([
          session.receive({ max: 1, waitMs: Math.max(1, deadline - clock.now()) }),
          timer,
        ]);
        requestOptions.signal?.throwIfAborted();
        const [reply] = received === TIMED_OUT ? [] : received;
        if (!reply) throw new RequestTimeoutError(describe, timeoutMs);
        await session.complete(reply);
        if (reply.headers[Header.ReplyStatus] === ReplyStatus.Error) {
          throw new RequestReplyError(
            reply.headers[Header.ErrorType] ?? 'Error',
            reply.headers[Header.ErrorText] ?? '',
            messageId,
          );
        }
        const body = readReplyBody(reply.body, messageId);
        return requestOptions.reply ? requestOptions.reply.parse(body) : (body as R);
      } finally {
        requestOptions.signal?.removeEventListener('abort', onCallerAbort);
        stop.abort();
        await session?.release().catch(() => undefined);
      }
    },
  };
}
