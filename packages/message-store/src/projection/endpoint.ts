import { type MessageEnvelope, MessageType } from '@nimbus/core';
import { EndpointRole } from '../enums.js';

/** Request types are recorded against their addressee; everything else (responses) against their sender. */
const ADDRESSED_TO_ENDPOINT: ReadonlySet<MessageType> = new Set<MessageType>([
  MessageType.EventRequest,
  MessageType.ContinuationRequest,
  MessageType.RetryRequest,
  MessageType.ResubmissionRequest,
  MessageType.SkipRequest,
  MessageType.HandoffCompletedRequest,
  MessageType.HandoffFailedRequest,
]);

export interface ResolvedEndpoint {
  readonly endpointId: string;
  readonly role: EndpointRole;
}

/**
 * Which endpoint a message is about. The role is always Subscriber: every row the Resolver writes
 * describes a consuming endpoint's view of an event.
 */
export function determineEndpoint(
  message: Pick<MessageEnvelope, 'messageType' | 'to' | 'from'>,
): ResolvedEndpoint {
  const endpointId = ADDRESSED_TO_ENDPOINT.has(message.messageType) ? message.to : (message.from ?? '');
  return { endpointId, role: EndpointRole.Subscriber };
}
