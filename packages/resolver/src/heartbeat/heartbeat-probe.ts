import {
  Addresses,
  createEnvelope,
  encodeEnvelope,
  HEARTBEAT_EVENT_TYPE_ID,
  MessageType,
  type TransportMessage,
  uuidv7,
} from '@nimbus/core';
import { probePayloadJson } from './heartbeat-payload.js';

/** Endpoint probes share one session so they never queue behind the endpoint's business sessions. */
export const ENDPOINT_PROBE_SESSION = 'Heartbeat';
/** The Resolver's own probe has its own session so endpoint answers do not inflate its round trip. */
export const RESOLVER_PROBE_SESSION = 'Heartbeat-Resolver';

/**
 * A heartbeat probe from the Manager to `to`. Its message id is also its correlation id: the answer carries
 * it back, and it keys the probe row.
 */
export function heartbeatProbe(to: string, probeId: string, sentAt: Date): TransportMessage {
  return encodeEnvelope(
    createEnvelope({
      messageId: probeId,
      correlationId: probeId,
      to,
      from: Addresses.manager,
      originatingFrom: Addresses.manager,
      sessionId: to === Addresses.resolver ? RESOLVER_PROBE_SESSION : ENDPOINT_PROBE_SESSION,
      messageType: MessageType.EventRequest,
      eventId: uuidv7(sentAt.getTime()),
      eventTypeId: HEARTBEAT_EVENT_TYPE_ID,
      content: {
        eventContent: { eventTypeId: HEARTBEAT_EVENT_TYPE_ID, eventJson: probePayloadJson(sentAt) },
        errorContent: null,
      },
    }),
  );
}
