import type { Headers } from '../envelope/headers.js';

/** What a transport carries: broker-level identity, application headers and a UTF-8 JSON body. */
export interface TransportMessage {
  readonly messageId: string;
  readonly sessionId: string;
  readonly correlationId: string | null;
  readonly headers: Headers;
  readonly body: string;
}
