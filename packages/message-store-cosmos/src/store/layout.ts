import type { PartitionKeyDefinition } from '@azure/cosmos';

/*
 * Container layout. Every endpoint gets its own container of resolver rows (partitioned by session, so
 * the session views and the status write's point read stay in one partition); the store's own data
 * lives in the fixed containers below, whose names no endpoint may take.
 */

export interface StoreContainerSpec {
  readonly id: string;
  readonly partitionKey: PartitionKeyDefinition;
}

const pk = (path: string): PartitionKeyDefinition => ({ paths: [path] });

export const STORE_CONTAINERS = {
  /** Per-message history, one document per (eventId, messageId). */
  messages: { id: 'messages', partitionKey: pk('/eventId') },
  /** Operator audit trail. */
  audits: { id: 'audits', partitionKey: pk('/eventId') },
  /** Notification subscriptions. */
  subscriptions: { id: 'subscriptions', partitionKey: pk('/endpointId') },
  /** "Already reported" markers per (endpointId, eventId). */
  eventreports: { id: 'eventreports', partitionKey: pk('/endpointId') },
  /** Endpoint metadata, heartbeat settings, service health and heartbeat history, by `kind`. */
  metadata: { id: 'Metadata', partitionKey: pk('/kind') },
} as const satisfies Record<string, StoreContainerSpec>;

/** Partition key of every endpoint container. */
export const ENDPOINT_PARTITION_KEY = pk('/sessionId');

/** Kinds of documents in the `Metadata` container. */
export const MetadataKind = {
  Endpoint: 'endpoint',
  HeartbeatSettings: 'heartbeat-settings',
  ServiceHealth: 'service-health',
  UptimeDay: 'uptime-day',
  HeartbeatGap: 'heartbeat-gap',
} as const;
export type MetadataKind = (typeof MetadataKind)[keyof typeof MetadataKind];

/**
 * Cosmos ids may not contain `/`, `\`, `?` or `#`; those (and `%`, so the mapping stays one-to-one)
 * are percent-encoded.
 */
export function encodeId(value: string): string {
  return value.replace(/[%/\\?#]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** The id of a resolver row inside its endpoint container: the composite `{eventId}_{sessionId}`. */
export function trackingDocumentId(eventId: string, sessionId: string): string {
  return encodeId(`${eventId}_${sessionId}`);
}
