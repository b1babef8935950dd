import type { EndpointMetadataStore, MessageTrackingStore, ServiceHealthStore } from '@nimbus/message-store';

/**
 * What the Resolver writes to. Tracking is required; the heartbeat parts are optional, so a store
 * without them still gives a working Resolver (heartbeat answers are then completed unrecorded).
 */
export type ResolverStore = MessageTrackingStore &
  Partial<Pick<EndpointMetadataStore, 'setHeartbeat'>> &
  Partial<Pick<ServiceHealthStore, 'setServiceHealth'>>;
