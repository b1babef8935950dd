import type { Logger } from '@nimbus/core';
import { Addresses, type Clock, type MessageEnvelope, MessageType } from '@nimbus/core';
import type { EndpointMetadataStore, ServiceHealthStore } from '@nimbus/message-store';
import { HeartbeatStatus, isHeartbeatTraffic } from '@nimbus/message-store';
import { RESOLVER_SERVICE_ID } from '../version.js';
import { parseHeartbeatPayload } from './heartbeat-payload.js';

export { isHeartbeatTraffic };

const STATUS_BY_ANSWER: ReadonlyMap<MessageType, HeartbeatStatus> = new Map<MessageType, HeartbeatStatus>([
  [MessageType.ResolutionResponse, HeartbeatStatus.On],
  [MessageType.UnsupportedResponse, HeartbeatStatus.Unsupported],
  [MessageType.ErrorResponse, HeartbeatStatus.Off],
  [MessageType.DeferralResponse, HeartbeatStatus.Off],
]);

export interface HeartbeatTrafficDeps {
  readonly metadata: Pick<EndpointMetadataStore, 'setHeartbeat'> | null;
  readonly serviceHealth: Pick<ServiceHealthStore, 'setServiceHealth'> | null;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly version: string;
}

function blank(value: string | null | undefined): boolean {
  return value === null || value === undefined || value.trim() === '';
}

/** The probe a heartbeat answer settles: the probe id travels as correlation id and as parent id. */
function probeIdOf(message: MessageEnvelope): string {
  if (!blank(message.correlationId)) return message.correlationId!;
  if (!blank(message.parentMessageId) && message.parentMessageId.toLowerCase() !== Addresses.self) {
    return message.parentMessageId;
  }
  return message.messageId;
}

/**
 * Heartbeat traffic never enters tracking: probe copies are dropped, the Resolver's own probe records
 * its liveness, and answers settle the endpoint's probe row. Store errors propagate to the caller.
 */
export async function handleHeartbeatTraffic(
  message: MessageEnvelope,
  enqueuedAt: Date,
  deps: HeartbeatTrafficDeps,
): Promise<void> {
  const payload = parseHeartbeatPayload(message.content.eventContent?.eventJson);
  const now = new Date(deps.clock.now());
  if (message.messageType === MessageType.EventRequest) {
    if (message.to.toLowerCase() !== Addresses.resolver.toLowerCase()) return;
    if (!deps.serviceHealth) return;
    const sentAt = payload.forwardSendTime ?? enqueuedAt;
    await deps.serviceHealth.setServiceHealth({
      serviceId: RESOLVER_SERVICE_ID,
      status: HeartbeatStatus.On,
      version: deps.version,
      lastProbeMessageId: null,
      lastProbeSentUtc: null,
      lastSeenUtc: now,
      roundTripMs: Math.max(0, now.getTime() - sentAt.getTime()),
    });
    return;
  }
  const endpointId = blank(payload.endpoint) ? (message.from ?? '') : payload.endpoint;
  if (blank(endpointId)) {
    deps.logger.warn(
      { messageId: message.messageId },
      'Heartbeat answer names no endpoint; nothing recorded',
    );
    return;
  }
  if (!deps.metadata) return;
  await deps.metadata.setHeartbeat({
    endpointId,
    heartbeat: {
      messageId: probeIdOf(message),
      startTime: payload.forwardSendTime ?? enqueuedAt,
      receivedTime: payload.forwardReceivedTime ?? now,
      endTime: now,
      intervalSeconds: 0,
      sdkVersion: payload.sdkVersion,
      endpointHeartbeatStatus: STATUS_BY_ANSWER.get(message.messageType) ?? HeartbeatStatus.Unknown,
    },
  });
}
