import type { HeartbeatStatus } from '../enums.js';
import type { Heartbeat } from './heartbeat.js';

export interface TechnicalContact {
  readonly name: string;
  readonly email: string;
}

export interface EndpointMetadata {
  readonly endpointId: string;
  readonly endpointOwner: string | null;
  readonly endpointOwnerTeam: string | null;
  readonly endpointOwnerEmail: string | null;
  /** null means the operator never chose; such endpoints are still probed (fan-out is opt-out). */
  readonly isHeartbeatEnabled: boolean | null;
  /** Rollup: status of the newest settled probe. */
  readonly endpointHeartbeatStatus: HeartbeatStatus | null;
  readonly technicalContacts: readonly TechnicalContact[];
  /** Retained probe rows, oldest first. Ignored by `setEndpointMetadata`. */
  readonly heartbeats: readonly Heartbeat[];
  readonly subscriptionStatus: boolean | null;
}

/** What `setEndpointMetadata` accepts: omitted fields are stored as null / empty. */
export type EndpointMetadataWrite = Pick<EndpointMetadata, 'endpointId'> &
  Partial<Omit<EndpointMetadata, 'endpointId' | 'heartbeats'>>;
