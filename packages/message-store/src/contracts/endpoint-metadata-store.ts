import type { EndpointMetadata, EndpointMetadataWrite } from '../entities/endpoint-metadata.js';
import type {
  Heartbeat,
  HeartbeatOverviewItem,
  HeartbeatSettings,
  HeartbeatSettingsUpdate,
} from '../entities/heartbeat.js';

/** `enableHeartbeatOnEndpoint`: the endpoint's explicit heartbeat opt-in. */
export interface HeartbeatOptIn {
  readonly endpointId: string;
  readonly enable: boolean;
}

/** `setHeartbeat`: one probe row of an endpoint. */
export interface HeartbeatWrite {
  readonly endpointId: string;
  readonly heartbeat: Heartbeat;
}

/** Endpoint ownership metadata and endpoint heartbeat state. */
export interface EndpointMetadataStore {
  /** Includes the retained probe rows (oldest first); null on a miss. */
  getEndpointMetadata(endpointId: string): Promise<EndpointMetadata | null>;
  /** Every record (or only the listed ids that exist), with probe rows. */
  getMetadatas(endpointIds?: readonly string[]): Promise<EndpointMetadata[]>;
  /** Whole-record upsert of the metadata fields; probe rows are left alone. */
  setEndpointMetadata(metadata: EndpointMetadataWrite): Promise<boolean>;
  /** Only explicit opt-ins (not the fan-out list: the fan-out is opt-out). */
  getMetadatasWithEnabledHeartbeat(): Promise<EndpointMetadata[]>;
  /** Sets the opt-in flag, creating the record if missing. */
  enableHeartbeatOnEndpoint(optIn: HeartbeatOptIn): Promise<void>;
  /**
   * Upserts one probe row by (endpointId, messageId); on update `intervalSeconds` is replaced only
   * when the incoming value is > 0. Prunes to the newest 20 rows, creates the record if missing and
   * recomputes the rollup status.
   */
  setHeartbeat(write: HeartbeatWrite): Promise<boolean>;
  /** Settles Pending rows with `startTime <= cutoffUtc` to Off; returns the endpoint ids touched. */
  sweepTimedOutHeartbeats(cutoffUtc: Date): Promise<string[]>;
  /** Never null: defaults when nothing is stored. */
  getHeartbeatSettings(): Promise<HeartbeatSettings>;
  /** Upserts the singleton; null claim timestamps and an absent `missedBeatsUntilOff` keep the stored values. */
  setHeartbeatSettings(settings: HeartbeatSettingsUpdate): Promise<boolean>;
  /** Atomic: succeeds only when enabled and (never sent or last sent <= dueBefore); then stamps now. */
  tryClaimHeartbeatSend(dueBefore: Date): Promise<boolean>;
  /** One row per metadata record, ordered by endpoint id. */
  getHeartbeatOverview(): Promise<HeartbeatOverviewItem[]>;
}
