import type { SessionMessageHandler } from '../processing/session-processor-options.js';
import type {
  AcceptOptions,
  AcceptSessionsOptions,
  ReceivedMessage,
  ReceiveOptions,
  SessionHandle,
  Transport,
} from '../transport/transport.js';
import type { EndpointCircuitBreaker } from './circuit-breaker.js';

function gateSession(session: SessionHandle, breaker: EndpointCircuitBreaker): SessionHandle {
  return new Proxy(session, {
    get(target, property) {
      if (property === 'receive') {
        return async (options: ReceiveOptions): Promise<ReceivedMessage[]> => {
          // An empty batch makes the processor release the session and go back to (gated) accepting.
          if (!breaker.allowRequest()) return [];
          let messages: ReceivedMessage[];
          try {
            messages = await target.receive(options);
          } catch (error) {
            breaker.releaseRequest();
            throw error;
          }
          if (messages.length === 0) breaker.releaseRequest();
          return messages;
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * A transport whose receiving pauses while the breaker is open: `acceptSession` (and `acceptSessions`) waits until the breaker lets a
 * request through, and a session's `receive` returns nothing while it does not. Everything else is delegated.
 * Give it to the `SessionProcessor` instead of the raw transport; publishing is not gated.
 */
export function gateTransport(transport: Transport, breaker: EndpointCircuitBreaker): Transport {
  return new Proxy(transport, {
    get(target, property) {
      if (property === 'acceptSession') {
        return async (input: string, options: AcceptOptions): Promise<SessionHandle | null> => {
          await breaker.waitUntilRequestAllowed(options.signal);
          if (options.signal?.aborted) return null;
          const session = await target.acceptSession(input, options);
          return session ? gateSession(session, breaker) : null;
        };
      }
      // Gated the same way, or a processor leasing several sessions at once would get around the breaker.
      if (property === 'acceptSessions') {
        const acceptMany = target.acceptSessions?.bind(target);
        if (!acceptMany) return undefined;
        return async (options: AcceptSessionsOptions): Promise<SessionHandle[]> => {
          await breaker.waitUntilRequestAllowed(options.signal);
          if (options.signal?.aborted) return [];
          return (await acceptMany(options)).map((session) => gateSession(session, breaker));
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Records each handled message's outcome on the breaker: a thrown error is a failure, anything else a success.
 * An engine that settles failures itself (and does not throw) must call `breaker.recordFailure(error)` where it
 * catches the business handler's error, and `recordSuccess()` after a handler success.
 */
export function withCircuitBreaker(
  handler: SessionMessageHandler,
  breaker: EndpointCircuitBreaker,
): SessionMessageHandler {
  return {
    ...(handler.onSessionAccepted ? { onSessionAccepted: (s) => handler.onSessionAccepted!(s) } : {}),
    async handleMessage(session, message) {
      try {
        await handler.handleMessage(session, message);
      } catch (error) {
        breaker.recordFailure(error);
        throw error;
      }
      breaker.recordSuccess();
    },
  };
}
