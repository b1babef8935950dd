import type { ParkedMessage, ReceivedMessage, SessionState, TransportMessage } from '@nimbus/core';
import type { Delivery } from '@nimbus/core/transport-spi';

// The in-memory broker's records: what the SQL transport keeps in table rows (see its rows.ts).

/** A message waiting in its session's line at one input. */
export interface LineMessage {
  readonly message: TransportMessage;
  readonly input: string;
  /** Permanent place in the (input, session) line. */
  readonly sequence: number;
  /** Global arrival order; used for fair session choice and peek order. */
  readonly arrival: number;
  readonly enqueuedAt: number;
  deliveryCount: number;
  /** Lease token of the session lease that last received it; redeliverable under any other lease. */
  heldBy: string | null;
  /** Token of the current delivery (`ReceivedMessage.lockToken`). */
  lockToken: string;
}

export interface SessionEntry {
  readonly input: string;
  readonly sessionId: string;
  nextSequence: number;
  readonly line: LineMessage[];
  state: SessionState | null;
  leaseToken: string | null;
  lockedUntil: number;
  readonly parked: Map<number, ParkedMessage>;
}

/** Routed copies that become visible together at `dueAt`. */
export interface ScheduledEntry {
  readonly id: string;
  readonly source: string;
  readonly dueAt: number;
  readonly order: number;
  readonly deliveries: readonly Delivery[];
}

export function newSessionEntry(input: string, sessionId: string): SessionEntry {
  return {
    input,
    sessionId,
    nextSequence: 1,
    line: [],
    state: null,
    leaseToken: null,
    lockedUntil: 0,
    parked: new Map(),
  };
}

export function isLeaseFree(entry: SessionEntry, now: number): boolean {
  return entry.leaseToken === null || entry.lockedUntil <= now;
}

/** A line message as its current delivery. */
export function receivedFromEntry(item: LineMessage): ReceivedMessage {
  return {
    ...item.message,
    input: item.input,
    sequence: item.sequence,
    deliveryCount: item.deliveryCount,
    enqueuedAt: new Date(item.enqueuedAt),
    lockToken: item.lockToken,
  };
}
