import {
  causeChain,
  consoleLogger,
  Header,
  type Logger,
  type MessageEnvelope,
  replyInputOf,
  type Transport,
  type TransportMessage,
  uuidv7,
} from '@nimbus/core';
import { RequestReplyConfigurationError } from './errors.js';
import { ReplyStatus } from './reply-headers.js';

export interface ReplyAddress {
  readonly replyTo: string;
  readonly replyToSessionId: string;
  readonly correlationId: string | null;
  readonly requestMessageId: string;
}

/** Where to reply to a request (a transport message or a decoded envelope); `null` when it asked for no reply. */
export function replyAddressOf(request: TransportMessage | MessageEnvelope): ReplyAddress | null {
  const isEnvelope = 'content' in request;
  const replyTo = isEnvelope ? request.replyTo : request.headers[Header.ReplyTo];
  const replyToSessionId = isEnvelope ? request.replyToSessionId : request.headers[Header.ReplyToSessionId];
  if (!replyTo || !replyToSessionId) return null;
  return {
    replyTo,
    replyToSessionId,
    correlationId: request.correlationId,
    requestMessageId: request.messageId,
  };
}

function errorTypeOf(error: unknown): string {
  return error instanceof Error ? error.name || error.constructor.name : typeof error;
}

export interface Responder {
  /** Sends a success reply with `response` as JSON. */
  reply(request: TransportMessage | MessageEnvelope, response: unknown): Promise<void>;
  /** Sends an error reply naming the error's type and message. */
  replyError(request: TransportMessage | MessageEnvelope, error: unknown): Promise<void>;
  /**
   * Best effort error reply for a failed request: sent unless the request asked for no reply or this
   * responder already replied to this error (or one in its `cause` chain). Never throws; a failed send is
   * logged, since the requester then only times out.
   */
  replyFailure(request: TransportMessage | MessageEnvelope, error: unknown): Promise<void>;
  /**
   * Runs `handle`; replies with its result, or (best effort) with its error and rethrows it so the engine's
   * normal failure path runs. A request without a reply address just runs `handle`.
   */
  respond<R>(request: TransportMessage | MessageEnvelope, handle: () => Promise<R> | R): Promise<R>;
}

export function createResponder(options: {
  readonly transport: Transport;
  readonly logger?: Logger;
}): Responder {
  const { transport } = options;
  const logger = options.logger ?? consoleLogger;

  async function send(
    request: TransportMessage | MessageEnvelope,
    status: ReplyStatus,
    body: string,
    extra: Record<string, string>,
  ): Promise<void> {
    const address = replyAddressOf(request);
    if (!address) {
      throw new RequestReplyConfigurationError(
        `Message ${request.messageId} has no ReplyTo/ReplyToSessionId; it was not sent as a request`,
      );
    }
    const reply: TransportMessage = {
      messageId: uuidv7(),
      sessionId: address.replyToSessionId,
      correlationId: address.correlationId,
      headers: { [Header.To]: replyInputOf(address.replyTo), [Header.ReplyStatus]: status, ...extra },
      body,
    };
    await transport.publish([{ source: address.replyTo, messages: [reply] }]);
  }

  // Errors already answered, so that a pipeline behaviour seeing the same failure does not reply twice.
  // A thrown primitive cannot be remembered; it may get a second error reply, which no requester reads.
  const replied = new WeakSet<object>();
  const alreadyReplied = (error: unknown) =>
    causeChain(error).some((link) => typeof link === 'object' && link !== null && replied.has(link));

  const responder: Responder = {
    reply: (request, response) => send(request, ReplyStatus.Success, JSON.stringify(response ?? null), {}),
    replyError: (request, error) =>
      send(request, ReplyStatus.Error, '', {
        [Header.ErrorType]: errorTypeOf(error),
        [Header.ErrorText]: error instanceof Error ? error.message : String(error),
      }),
    async replyFailure(request, error) {
      if (replyAddressOf(request) === null || alreadyReplied(error)) return;
      if (typeof error === 'object' && error !== null) replied.add(error);
      await responder
        .replyError(request, error)
        .catch((sendError: unknown) =>
          logger.warn(
            { messageId: request.messageId, error: sendError },
            'Could not send the error reply; the requester will time out',
          ),
        );
    },
    async respond(request, handle) {
      let result: Awaited<ReturnType<typeof handle>>;
      try {
        result = await handle();
      } catch (error) {
        await responder.replyFailure(request, error);
        throw error;
      }
      if (replyAddressOf(request) !== null) await responder.reply(request, result);
      return result;
    },
  };
  return responder;
}
