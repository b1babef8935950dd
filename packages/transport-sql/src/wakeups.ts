import { systemClock, TransportError, TransportErrorCode } from '@nimbus/core';
import { WorkWaiters } from '@nimbus/core/transport-spi';

/**
 * A unit of new work: a session at an input. The writers return sets of these keys; they decide whom to wake
 * in this process (`WorkWaiters`: one waiter per unit) and what other processes hear (NOTIFY payloads).
 */
export function workKey(input: string, sessionId: string): string {
  return `${input}\u0000${sessionId}`;
}

/** Work keys grouped per input. */
export function workByInput(keys: Iterable<string>): Map<string, Set<string>> {
  const byInput = new Map<string, Set<string>>();
  for (const key of keys) {
    const split = key.indexOf('\u0000');
    const input = split < 0 ? key : key.slice(0, split);
    let sessions = byInput.get(input);
    if (!sessions) {
      sessions = new Set<string>();
      byInput.set(input, sessions);
    }
    if (split >= 0) sessions.add(key.slice(split + 1));
  }
  return byInput;
}

/** PostgreSQL caps a NOTIFY payload at 8000 bytes; sessions beyond this go into further payloads. */
const MAX_PAYLOAD_CHARS = 3_500;

/**
 * NOTIFY payloads for new work at `input`: a JSON array `[input, origin, ...sessionIds]`, split to stay small.
 * `origin` names the writing transport, which ignores its own notifications (it woke its waiters at commit).
 */
export function workPayloads(origin: string, input: string, sessionIds: Iterable<string>): string[] {
  const payloads: string[] = [];
  const head = [input, origin];
  let batch: string[] = [...head];
  let length = input.length + origin.length + 8;
  for (const sessionId of sessionIds) {
    if (batch.length > 1 && length + sessionId.length + 3 > MAX_PAYLOAD_CHARS) {
      payloads.push(JSON.stringify(batch));
      batch = [...head];
      length = input.length + origin.length + 8;
    }
    batch.push(sessionId);
    length += sessionId.length + 3;
  }
  if (batch.length > 2) payloads.push(JSON.stringify(batch));
  return payloads;
}

/** Reads a NOTIFY payload; a bare input name (or anything unreadable) means "anything on this input". */
export function parseWorkPayload(payload: string): {
  input: string;
  origin: string | null;
  sessionIds: string[] | null;
} {
  if (payload.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(payload);
      if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') && parsed.length > 1) {
        const [input, origin, ...sessionIds] = parsed as string[];
        return { input: input!, origin: origin!, sessionIds };
      }
    } catch {
      // Not ours: fall through to the plain form, which wakes every waiter of that input.
    }
  }
  return { input: payload, origin: null, sessionIds: null };
}

/** The SQL transport's wake-ups: `WorkWaiters` on the system clock, failing with `Closed` once closed. */
export class Wakeups extends WorkWaiters {
  constructor(private readonly origin: string) {
    super(systemClock);
  }

  /** Wakes one waiter per work key written by this process. */
  wakeFor(keys: Iterable<string>): void {
    for (const [input, sessionIds] of workByInput(keys)) this.notifyWork(input, sessionIds);
  }

  /** A NOTIFY from another process (or this one). */
  onPayload(payload: string): void {
    const { input, origin, sessionIds } = parseWorkPayload(payload);
    if (origin === this.origin) return;
    if (sessionIds === null) this.notifyInput(input);
    else this.notifyWork(input, sessionIds);
  }

  shutDown(): void {
    this.close(new TransportError(TransportErrorCode.Closed, 'The SQL transport was closed'));
  }
}
