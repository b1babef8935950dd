import type { ResolutionStatus } from '../enums.js';
import type { UnresolvedEvent } from './unresolved-event.js';

/** Counts of live (not removed) unresolved rows on one endpoint. Terminal rows are not counted. */
export interface EndpointStateCount {
  readonly endpointId: string;
  readonly pendingCount: number;
  readonly deferredCount: number;
  readonly failedCount: number;
  readonly deadletterCount: number;
  readonly unsupportedCount: number;
  readonly eventTime: Date;
}

/** Composite ids (`{eventId}_{sessionId}`) of a session's blocking rows. */
export interface SessionStateCount {
  readonly sessionId: string;
  readonly pendingEvents: readonly string[];
  readonly deferredEvents: readonly string[];
}

/** One page of actionable rows on an endpoint, newest update first, with composite ids per status. */
export interface EndpointState {
  readonly endpointId: string;
  /** Opaque; null when this is the last page. */
  readonly continuationToken: string | null;
  readonly enrichedUnresolvedEvents: readonly UnresolvedEvent[];
  readonly pendingEvents: readonly string[];
  readonly failedEvents: readonly string[];
  readonly deferredEvents: readonly string[];
  readonly deadletteredEvents: readonly string[];
  readonly unsupportedEvents: readonly string[];
  readonly eventTime: Date;
}

/** Every composite id of a page, in the order Pending, Failed, Deferred, DeadLettered, Unsupported. */
export function allUnresolvedEventIds(state: EndpointState): string[] {
  return [
    ...state.pendingEvents,
    ...state.failedEvents,
    ...state.deferredEvents,
    ...state.deadletteredEvents,
    ...state.unsupportedEvents,
  ];
}

export interface BlockedMessageEvent {
  readonly originatingId: string;
  readonly eventId: string;
  readonly status: ResolutionStatus;
}

export interface BlockedMessageEventPage {
  readonly items: readonly BlockedMessageEvent[];
  /** Number of matching rows before paging. */
  readonly total: number;
}
