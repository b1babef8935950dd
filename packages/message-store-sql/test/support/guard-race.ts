import { MessageType } from '@nimbus/core';
import { type MessageTrackingStore, ResolutionStatus, TERMINAL_STATUSES } from '@nimbus/message-store';
import { decideStatusWrite, type GuardedRow } from '@nimbus/message-store/provider';

/** One status write in a race: `tag` (stored in the row's `to`) identifies it in the committed log. */
export interface RaceWrite {
  readonly tag: string;
  readonly eventId: string;
  readonly status: ResolutionStatus;
  readonly messageType: MessageType;
  readonly lastMessageId: string;
  readonly parentMessageId: string;
}

export interface RaceOutcome extends RaceWrite {
  readonly written: boolean;
}

/** One committed change of a row, in commit order (captured by a trigger). */
export interface LoggedChange {
  readonly eventId: string;
  readonly old: RowState | null;
  readonly next: RowState;
}

/** Rebuilds a row state with a fixed key order, so states compare by their JSON. */
export function rowState(raw: Record<string, unknown>): RowState {
  return {
    status: String(raw.status),
    messageType: String(raw.messageType),
    parentMessageId: (raw.parentMessageId as string | null) ?? null,
    lastMessageId: (raw.lastMessageId as string | null) ?? null,
    tag: (raw.tag as string | null) ?? null,
  };
}

export interface RowState {
  readonly status: string;
  readonly messageType: string;
  readonly parentMessageId: string | null;
  readonly lastMessageId: string | null;
  readonly tag: string | null;
}

const KINDS: { status: ResolutionStatus; messageType: MessageType }[] = [
  { status: ResolutionStatus.Pending, messageType: MessageType.EventRequest },
  { status: ResolutionStatus.Deferred, messageType: MessageType.DeferralResponse },
  { status: ResolutionStatus.Pending, messageType: MessageType.PendingHandoffResponse },
  { status: ResolutionStatus.Pending, messageType: MessageType.RetryRequest },
  { status: ResolutionStatus.Pending, messageType: MessageType.ResubmissionRequest },
  { status: ResolutionStatus.Failed, messageType: MessageType.ErrorResponse },
  { status: ResolutionStatus.Completed, messageType: MessageType.ResolutionResponse },
  { status: ResolutionStatus.Skipped, messageType: MessageType.SkipResponse },
];

/** Deterministic pseudo-random numbers, so a failing race can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * `writers` lists of writes over `rows` rows. Message ids come from a small pool, so control requests
 * often meet an outcome that names them as parent: every guard branch gets exercised.
 */
export function planRace(
  seed: number,
  writers: number,
  writesEach: number,
  rows: number,
  prefix: string,
): RaceWrite[][] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const ids = ['m1', 'm2', 'm3'];
  return Array.from({ length: writers }, (_, w) =>
    Array.from({ length: writesEach }, (_, i) => {
      const kind = pick(KINDS);
      return {
        tag: `w${w}-${i}`,
        eventId: `${prefix}-e${Math.floor(next() * rows)}`,
        status: kind.status,
        messageType: kind.messageType,
        lastMessageId: pick(ids),
        parentMessageId: pick(ids),
      };
    }),
  );
}

export function uploadFor(
  store: MessageTrackingStore,
  write: RaceWrite,
  endpointId: string,
): Promise<boolean> {
  const content = {
    enqueuedTimeUtc: new Date(),
    messageType: write.messageType,
    lastMessageId: write.lastMessageId,
    parentMessageId: write.parentMessageId,
    to: write.tag,
  };
  return store.writeStatus({
    key: { endpointId, eventId: write.eventId, sessionId: 's1' },
    status: write.status,
    content,
  });
}

function incoming(write: RaceWrite) {
  return {
    resolutionStatus: write.status,
    messageType: write.messageType,
    lastMessageId: write.lastMessageId,
  };
}

function guarded(state: RowState | null): GuardedRow | null {
  return state === null
    ? null
    : {
        resolutionStatus: state.status as ResolutionStatus,
        messageType: state.messageType as MessageType,
        parentMessageId: state.parentMessageId,
      };
}

/**
 * Checks a race against the committed log. Returns the problems found (empty when the store is right):
 * - each row's log is one chain: an insert, then updates whose old state is the previous new state
 *   (a lost update would break the chain);
 * - each committed change is one the guard allows against the row it actually replaced;
 * - every write that returned true is committed exactly once, every refused write never;
 * - every refusal is one the guard makes against some committed state of its row;
 * - the stored row is the last committed state.
 */
export function verifyRace(
  outcomes: readonly RaceOutcome[],
  log: readonly LoggedChange[],
  finalRows: ReadonlyMap<string, RowState>,
): string[] {
  const problems: string[] = [];
  const byEvent = new Map<string, LoggedChange[]>();
  for (const change of log) byEvent.set(change.eventId, [...(byEvent.get(change.eventId) ?? []), change]);
  const byTag = new Map(outcomes.map((o) => [o.tag, o]));
  const committedTags = new Map<string, number>();

  for (const [eventId, changes] of byEvent) {
    let previous: RowState | null = null;
    for (const [i, change] of changes.entries()) {
      if (JSON.stringify(change.old) !== JSON.stringify(previous)) {
        problems.push(
          `${eventId} change ${i}: replaced ${JSON.stringify(change.old)} but the committed row was ${JSON.stringify(previous)} (lost update)`,
        );
      }
      const write = change.next.tag === null ? undefined : byTag.get(change.next.tag);
      if (write === undefined) {
        problems.push(`${eventId} change ${i}: unknown writer ${change.next.tag}`);
      } else {
        committedTags.set(write.tag, (committedTags.get(write.tag) ?? 0) + 1);
        if (decideStatusWrite(guarded(change.old), incoming(write)) !== 'write') {
          problems.push(
            `${eventId} change ${i}: ${write.tag} (${write.messageType} → ${write.status}) was committed over ${JSON.stringify(change.old)} although the guard refuses it`,
          );
        }
      }
      previous = change.next;
    }
    const stored = finalRows.get(eventId);
    if (JSON.stringify(stored) !== JSON.stringify(previous)) {
      problems.push(
        `${eventId}: stored row ${JSON.stringify(stored)} is not the last committed state ${JSON.stringify(previous)}`,
      );
    }
  }

  for (const outcome of outcomes) {
    const count = committedTags.get(outcome.tag) ?? 0;
    if (outcome.written && count !== 1)
      problems.push(`${outcome.tag} returned true but was committed ${count} times`);
    if (!outcome.written) {
      if (count !== 0) problems.push(`${outcome.tag} returned false but was committed`);
      if (TERMINAL_STATUSES.has(outcome.status))
        problems.push(`${outcome.tag}: a terminal write was refused`);
      const states = (byEvent.get(outcome.eventId) ?? []).map((c) => c.next);
      if (!states.some((state) => decideStatusWrite(guarded(state), incoming(outcome)) === 'refuse')) {
        problems.push(
          `${outcome.tag} was refused but the guard refuses it against no committed state of its row`,
        );
      }
    }
  }
  return problems;
}
