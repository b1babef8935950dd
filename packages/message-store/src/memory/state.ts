import type { Clock } from '@nimbus/core';
import type { EndpointMetadata } from '../entities/endpoint-metadata.js';
import type {
  Heartbeat,
  HeartbeatGap,
  HeartbeatSettings,
  HeartbeatUptimeDay,
  ServiceHealth,
} from '../entities/heartbeat.js';
import type { EventReport, MessageAuditEntity } from '../entities/message-audit.js';
import type { MessageEntity } from '../entities/message-entity.js';
import type { EndpointSubscription } from '../entities/subscription.js';
import type { UnresolvedEvent } from '../entities/unresolved-event.js';
import type { RetentionOptions } from '../retention.js';

export type RowVisibility = 'live' | 'removed' | 'archived';

export interface TrackingRow {
  event: UnresolvedEvent;
  visibility: RowVisibility;
  /** Monotonic write counter; breaks ties between equal timestamps deterministically. */
  seq: number;
  expiresAt: number | null;
  /** Stamped at the status write (`rowFailureSignature`), like the SQL column. */
  failureSignature: string | null;
}

export interface StoredMessage {
  entity: MessageEntity;
  seq: number;
  expiresAt: number;
}

export interface StoredAudit {
  eventId: string;
  endpointId: string | null;
  eventTypeId: string | null;
  audit: MessageAuditEntity;
  createdAt: Date;
  seq: number;
  expiresAt: number;
}

export type StoredMetadata = Omit<EndpointMetadata, 'heartbeats'> & { heartbeats: Heartbeat[] };

/** Everything the in-memory provider holds. Values are cloned on the way in and out. */
export interface MemoryState {
  readonly clock: Clock;
  readonly retention: RetentionOptions;
  seq: number;
  readonly rows: Map<string, TrackingRow>;
  readonly messages: Map<string, StoredMessage>;
  audits: StoredAudit[];
  readonly reports: Map<string, EventReport>;
  readonly subscriptions: Map<string, EndpointSubscription>;
  readonly metadata: Map<string, StoredMetadata>;
  heartbeatSettings: HeartbeatSettings | null;
  readonly serviceHealth: Map<string, ServiceHealth>;
  readonly uptimeDays: Map<string, HeartbeatUptimeDay>;
  readonly gaps: Map<string, HeartbeatGap>;
}

export function createMemoryState(clock: Clock, retention: RetentionOptions): MemoryState {
  return {
    clock,
    retention,
    seq: 0,
    rows: new Map(),
    messages: new Map(),
    audits: [],
    reports: new Map(),
    subscriptions: new Map(),
    metadata: new Map(),
    heartbeatSettings: null,
    serviceHealth: new Map(),
    uptimeDays: new Map(),
    gaps: new Map(),
  };
}

export function nextSeq(state: MemoryState): number {
  state.seq += 1;
  return state.seq;
}

export function now(state: MemoryState): Date {
  return new Date(state.clock.now());
}

/** Pairs of ids joined with a separator no id contains, so ("p_x","y") and ("p","x_y") stay apart. */
export function pairKey(...parts: string[]): string {
  return parts.join('\u0000');
}

export const clone = <T>(value: T): T => structuredClone(value);
