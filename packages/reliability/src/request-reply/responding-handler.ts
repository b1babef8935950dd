import type { MessageEnvelope } from '@nimbus/core';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import type { Responder } from './responder.js';

/** What a responding handler needs from the SDK's handler context: the request as the engine decoded it. */
export interface RequestContext {
  readonly raw: { readonly message: MessageEnvelope };
}

/**
 * Turns a function that computes a reply into an SDK event handler (`subscriber.on(Type, …)`): its result is
 * sent as the success reply; a thrown error is replied (best effort) and rethrown, so the engine's normal
 * failure path (ErrorResponse, block, retry) still runs. A request without a reply address just runs the
 * function; an inbox duplicate never reaches it, so it is never answered twice.
 */
export function respondingHandler<T, R, C extends RequestContext = RequestContext>(
  responder: Responder,
  handle: (request: T, context: C) => Promise<R> | R,
): (request: T, context: C) => Promise<void> {
  if (!responder || typeof responder.respond !== 'function') {
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      'respondingHandler needs a responder: createResponder({ transport })',
    );
  }
  return async (request, context) => {
    await responder.respond(context.raw.message, () => handle(request, context));
  };
}
