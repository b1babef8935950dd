import {
  type ManualClock,
  NimBusError,
  NimBusErrorCode,
  RESOLVER_INPUT,
  type SessionHandle,
  type SessionMessageHandler,
} from '@nimbus/core';
import type { RecordingTransport } from './recording-transport.js';

/** How a bus waits on its transport: a manual clock the test moves, or real time. */
export interface DeliveryTiming {
  /** The manual clock the transport reads; null when the transport runs on real time. */
  readonly manualClock: ManualClock | null;
  /** How long an accept or a receive waits for a message already on its way (0 for in-process transports). */
  readonly waitMs: number;
  /** Real time only: how long after its due time scheduled work may take to become visible. */
  readonly scheduleLagMs: number;
}

/** The timing of a bus over a transport that reads `clock` (null: real time). */
export function deliveryTiming(given: {
  readonly clock: ManualClock | null;
  readonly waitMs?: number;
  readonly scheduleLagMs?: number;
}): DeliveryTiming {
  return {
    manualClock: given.clock,
    waitMs: given.waitMs ?? 0,
    scheduleLagMs: given.clock ? 0 : (given.scheduleLagMs ?? 50),
  };
}

export interface DeliverAllOptions {
  /** Move the clock to each scheduled retry/publish when nothing else is left (default false). */
  readonly advanceTime?: boolean;
  /** Safety bound on accept rounds (default 10 000). */
  readonly maxRounds?: number;
}

export interface DeliveryReport {
  /** Messages handed to endpoint engines (replays inside a session are not counted separately). */
  readonly delivered: number;
  /** How far the clock was moved (on real time: how long the bus waited for scheduled work), in ms. */
  readonly advancedMs: number;
}

/** One input of the bus and what handles its messages. */
export interface InputWorker extends SessionMessageHandler {
  readonly input: string;
}

const now = (timing: DeliveryTiming): number => timing.manualClock?.now() ?? Date.now();

/**
 * Runs every worker's input, round after round, until a round handles nothing (on real time: and no input
 * counts an active message). A due time the last quiet
 * round may not have seen (due since shortly before it started) gets one more round once it is visible; with
 * `advanceTime` the next later one is waited for (a manual clock jumps to it) and delivery goes on.
 */
export async function deliverUntilQuiet(
  transport: RecordingTransport,
  workers: readonly InputWorker[],
  timing: DeliveryTiming,
  options: DeliverAllOptions = {},
  drainWith?: (input: string, worker: InputWorker, recording: RecordingTransport) => Promise<number>,
): Promise<DeliveryReport> {
  const started = now(timing);
  const maxRounds = options.maxRounds ?? 10_000;
  let delivered = 0;
  let waited = 0;
  for (let round = 0; round < maxRounds; round++) {
    const roundStart = now(timing);
    let handled = 0;
    for (const worker of workers) {
      // The Resolver's input stays on the bus's own loop: a host driver runs endpoints.
      const hosted = drainWith && worker.input !== RESOLVER_INPUT;
      handled += hosted
        ? await drainWith(worker.input, worker, transport)
        : await drainInput(transport, worker, timing.waitMs);
    }
    delivered += handled;
    if (handled > 0) continue;
    // On real time a short accept can miss a session under load; the input's own count has the last word.
    if (!timing.manualClock && (await anyActive(transport, workers))) continue;
    const unseen = transport.pendingDueTimes(roundStart - timing.scheduleLagMs);
    const next = options.advanceTime
      ? unseen[0]
      : unseen.find((due) => due <= roundStart + timing.scheduleLagMs);
    if (next === undefined) {
      return { delivered, advancedMs: timing.manualClock ? now(timing) - started : waited };
    }
    if (timing.manualClock) {
      timing.manualClock.set(next);
    } else {
      const pause = Math.max(0, next + timing.scheduleLagMs - Date.now());
      await new Promise((resolve) => setTimeout(resolve, pause));
      waited += pause;
    }
  }
  throw new NimBusError(
    NimBusErrorCode.ExpectationFailed,
    `deliverAll: still busy after ${maxRounds} rounds; is a handler failing transiently forever?`,
  );
}

async function anyActive(transport: RecordingTransport, workers: readonly InputWorker[]) {
  for (const worker of workers) if ((await transport.counts(worker.input)).active > 0) return true;
  return false;
}

async function drainInput(transport: RecordingTransport, worker: InputWorker, waitMs: number) {
  let handled = 0;
  for (;;) {
    const session = await transport.acceptSession(worker.input, { waitMs });
    if (session === null) return handled;
    handled += await drainSession(session, worker, waitMs);
  }
}

async function drainSession(session: SessionHandle, worker: InputWorker, waitMs: number) {
  let handled = 0;
  try {
    await worker.onSessionAccepted?.(session);
    for (;;) {
      const messages = await session.receive({ max: 50, waitMs: waitMs });
      if (messages.length === 0) return handled;
      for (const message of messages) {
        handled += 1;
        await worker.handleMessage(session, message);
      }
    }
  } finally {
    await session.release();
  }
}
