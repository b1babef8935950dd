import type { Link } from '@opentelemetry/api';
import type { MessageEnvelope } from '../envelope/envelope.js';
import { decodeEnvelope } from '../envelope/wire.js';
import { NimBusErrorCode } from '../errors/error-codes.js';
import { isNimBusError } from '../errors/nimbus-error.js';
import {
  continuationRequest,
  describe,
  invalidMessageNotice,
  type Notice,
  TransientAbort,
  type Work,
} from './engine-support.js';
import type { EngineTelemetry } from './engine-telemetry.js';
import type { SettlementOutcomes } from './outcome-recorder.js';
import type { EffectsBuilder, Verdict } from './plan.js';
import { type EngineSessionState, modeOf, withAwaiting } from './session-state.js';
import type { SessionReads } from './settlements.js';
import type { EngineDeps } from './step.js';

/** What replaying needs of the engine: its collaborators and the one path every message takes. */
export interface ReplayContext {
  readonly deps: EngineDeps;
  readonly telemetry: EngineTelemetry;
  readonly maxReplay: number;
  process(
    work: Work,
    state: EngineSessionState,
    effects: EffectsBuilder,
    notices: Notice[],
    outcomes: SettlementOutcomes,
  ): Promise<Verdict>;
}

/** How often a parked message that keeps failing transiently is replayed again before it is dead-lettered. */
export const MAX_REPLAY_TRANSIENT_ATTEMPTS = 10;
export const REPLAY_RETRY_BASE_MS = 500;
const REPLAY_RETRY_MAX_MS = 30_000;

/**
 * One settlement's replay: `attempt` is how often the line already stalled on a transient failure (the
 * `retryCount` of the continuation that triggered it); `stalled` is set when it stalls again.
 */
export interface ReplayRun {
  readonly attempt: number;
  stalled: boolean;
}

/**
 * Replays parked messages in sequence order through the same path as new ones, inside the session. Stops
 * when the line is empty (back to open, count reset), when a replayed message blocks the session again
 * (the rest stay parked in place), after the per-settlement budget (a continuation is sent), or when a
 * replayed message fails transiently: it stays parked in place, what was replayed before it is settled (so
 * no earlier event runs again), and a continuation retries the line with back-off.
 */
export function replayParked(
  ctx: ReplayContext,
  session: SessionReads,
  state: EngineSessionState,
  effects: EffectsBuilder,
  notices: Notice[],
  alreadyReplayed: number,
  outcomes: SettlementOutcomes,
  run: ReplayRun,
): Promise<number> {
  if (run.stalled) return Promise.resolve(0);
  return ctx.telemetry.replay(session.sessionId, (link) =>
    replayLine(ctx, session, state, effects, notices, alreadyReplayed, outcomes, link, run),
  );
}

/**
 * A replayed message failed transiently: keep it parked and retry the line later, or, after
 * {@link MAX_REPLAY_TRANSIENT_ATTEMPTS}, dead-letter it (requeueable) like a message past its max delivery count.
 * Returns whether the line goes on.
 */
function onTransientReplay(
  ctx: ReplayContext,
  session: SessionReads,
  state: EngineSessionState,
  effects: EffectsBuilder,
  parked: { sequence: number },
  message: MessageEnvelope,
  error: unknown,
  run: ReplayRun,
): boolean {
  const { deps } = ctx;
  if (run.attempt + 1 >= MAX_REPLAY_TRANSIENT_ATTEMPTS) {
    const reason = `Max delivery count exceeded: failed transiently ${MAX_REPLAY_TRANSIENT_ATTEMPTS} times while being replayed`;
    effects.deadLetterParked.push({ sequence: parked.sequence, reason, description: String(error) });
    effects.responses.push(deps.responses.deadLetterNotice(message, reason, error, deps.clock.now()));
    if (message.eventId) state.awaitingOperator = withAwaiting(state, message.eventId);
    return true;
  }
  run.stalled = true;
  state.deferredCount += 1;
  const delay = Math.min(REPLAY_RETRY_MAX_MS, REPLAY_RETRY_BASE_MS * 2 ** run.attempt);
  effects.scheduled.push({
    envelope: { ...continuationRequest(deps, session.sessionId), retryCount: run.attempt + 1 },
    at: new Date(deps.clock.now() + delay),
  });
  deps.logger.warn(
    {
      sessionId: session.sessionId,
      eventId: message.eventId,
      attempt: run.attempt + 1,
      delayMs: delay,
      error: String(error),
    },
    'A replayed message failed transiently; it stays parked and the replay is retried.',
  );
  return false;
}

async function replayLine(
  ctx: ReplayContext,
  session: SessionReads,
  state: EngineSessionState,
  effects: EffectsBuilder,
  notices: Notice[],
  alreadyReplayed: number,
  outcomes: SettlementOutcomes,
  link: Link,
  run: ReplayRun,
): Promise<number> {
  let replayed = 0;
  let from = 0;
  // Unparked or dead-lettered earlier in this same settlement (not applied yet): already decided.
  const unparked = new Set([...effects.unpark, ...effects.deadLetterParked.map((d) => d.sequence)]);
  while (modeOf(state) === 'replaying') {
    if (alreadyReplayed + replayed >= ctx.maxReplay) {
      effects.responses.push(continuationRequest(ctx.deps, session.sessionId));
      return replayed;
    }
    const page = await session.readParked(from, Math.min(100, ctx.maxReplay));
    if (page.length === 0) {
      state.replaying = false;
      state.deferredCount = 0;
      return replayed;
    }
    for (const parked of page) {
      from = parked.sequence + 1;
      if (unparked.has(parked.sequence)) continue;
      replayed += 1;
      unparked.add(parked.sequence);
      state.deferredCount = Math.max(0, state.deferredCount - 1);
      let message: MessageEnvelope;
      try {
        message = decodeEnvelope(parked.message);
      } catch (error) {
        const reason = isNimBusError(error, NimBusErrorCode.InvalidMessage)
          ? error.message
          : `Unreadable parked message: ${String(error)}`;
        ctx.deps.logger.warn(
          { sequence: parked.sequence, sessionId: session.sessionId, reason },
          'Dead-lettered an unreadable parked message.',
        );
        effects.deadLetterParked.push({ sequence: parked.sequence, reason, description: reason });
        const notice = invalidMessageNotice(ctx.deps, parked.message, reason);
        if (notice) effects.responses.push(notice);
        continue;
      }
      const work: Work = {
        message,
        transportMessage: parked.message,
        isReplay: true,
        deliveryCount: 1,
        enqueuedAt: parked.parkedAt,
      };
      // Each replayed message continues its own trace (the one it was published in), linked to the replay.
      const verdict = await ctx.telemetry.process(
        parked.message,
        () => ctx.process(work, state, effects, notices, outcomes),
        link,
      );
      if (verdict.kind === 'transient') {
        unparked.delete(parked.sequence);
        if (!onTransientReplay(ctx, session, state, effects, parked, message, verdict.error, run))
          return replayed;
        unparked.add(parked.sequence);
        continue;
      }
      // An undecided replayed message must not be unparked: give the whole settlement up instead.
      if (verdict.kind === 'skipped')
        throw new TransientAbort(new Error('a behaviour skipped a replayed message'));
      if (verdict.kind === 'deadLetter') {
        // Into the transport's dead-letter list (requeueable), not just gone from the line.
        effects.deadLetterParked.push({
          sequence: parked.sequence,
          reason: verdict.reason,
          description: describe(verdict),
        });
      } else {
        effects.unpark.push(parked.sequence);
      }
      if (modeOf(state) !== 'replaying') return replayed;
      if (alreadyReplayed + replayed >= ctx.maxReplay) break;
    }
  }
  return replayed;
}
