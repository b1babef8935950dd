import type { SessionState } from '../transport/transport.js';

/**
 * The engine's view of one session at one endpoint.
 * - open: new requests are handled;
 * - blocked: `blockedByEventId` failed or awaits a handoff; new requests are parked behind it;
 * - replaying: the block is gone but parked messages still wait; they run before any new input.
 */
export type SessionMode = 'open' | 'blocked' | 'replaying';

export interface EngineSessionState {
  blockedByEventId: string | null;
  replaying: boolean;
  /** The next park sequence; never reused, so a parked message keeps its place for good. */
  nextSequence: number;
  /** How many messages are parked now; reset to 0 when a replay empties the line. */
  deferredCount: number;
  /**
   * Events of this session that ended dead-lettered or unsupported here without blocking it: an operator may
   * still resubmit or skip them. The newest {@link MAX_AWAITING_OPERATOR} are kept.
   */
  awaitingOperator: readonly string[];
}

/** How many events awaiting an operator a session remembers; an older one is refused (requeue it instead). */
export const MAX_AWAITING_OPERATOR = 50;

export function emptySessionState(): EngineSessionState {
  return {
    blockedByEventId: null,
    replaying: false,
    nextSequence: 1,
    deferredCount: 0,
    awaitingOperator: [],
  };
}

export function modeOf(state: EngineSessionState): SessionMode {
  if (state.blockedByEventId) return 'blocked';
  return state.replaying ? 'replaying' : 'open';
}

function count(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
}

/** Reads stored state leniently: anything unreadable falls back to the defaults. */
export function readSessionState(stored: SessionState | null): EngineSessionState {
  const state = emptySessionState();
  if (stored === null || typeof stored !== 'object') return state;
  const blocker = stored.blockedByEventId;
  state.blockedByEventId = typeof blocker === 'string' && blocker !== '' ? blocker : null;
  state.replaying = stored.replaying === true;
  state.nextSequence = Math.max(1, count(stored.nextSequence, 1));
  state.deferredCount = count(stored.deferredCount, 0);
  const awaiting = stored.awaitingOperator;
  if (Array.isArray(awaiting)) {
    state.awaitingOperator = awaiting
      .filter((id): id is string => typeof id === 'string' && id !== '')
      .slice(-MAX_AWAITING_OPERATOR);
  }
  return state;
}

/**
 * The stored form. The next sequence is kept even when nothing else is set, so that sequences are never
 * reused for the session's lifetime; a session that never parked stores nothing.
 */
export function writeSessionState(state: EngineSessionState): SessionState | null {
  const awaiting = state.awaitingOperator.length > 0;
  if (
    !state.blockedByEventId &&
    !state.replaying &&
    state.deferredCount === 0 &&
    state.nextSequence <= 1 &&
    !awaiting
  ) {
    return null;
  }
  return {
    blockedByEventId: state.blockedByEventId,
    replaying: state.replaying,
    nextSequence: state.nextSequence,
    deferredCount: state.deferredCount,
    ...(awaiting ? { awaitingOperator: [...state.awaitingOperator] } : {}),
  };
}

export function sameEventId(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}

export function sessionStatesEqual(a: EngineSessionState, b: EngineSessionState): boolean {
  return (
    a.blockedByEventId === b.blockedByEventId &&
    a.replaying === b.replaying &&
    a.nextSequence === b.nextSequence &&
    a.deferredCount === b.deferredCount &&
    a.awaitingOperator.length === b.awaitingOperator.length &&
    a.awaitingOperator.every((id, i) => id === b.awaitingOperator[i])
  );
}

export function isAwaitingOperator(state: EngineSessionState, eventId: string | null): boolean {
  return state.awaitingOperator.some((id) => sameEventId(id, eventId));
}

/** The list with `eventId` added last (once), trimmed to the newest {@link MAX_AWAITING_OPERATOR}. */
export function withAwaiting(state: EngineSessionState, eventId: string): readonly string[] {
  return [...state.awaitingOperator.filter((id) => !sameEventId(id, eventId)), eventId].slice(
    -MAX_AWAITING_OPERATOR,
  );
}

export function withoutAwaiting(state: EngineSessionState, eventId: string | null): readonly string[] {
  return state.awaitingOperator.filter((id) => !sameEventId(id, eventId));
}
