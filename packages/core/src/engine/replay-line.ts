import type { Link } from '@opentelemetry/api';
import type { MessageEnvelope } from '../envelope/envelope.js';
import { InvalidMessageError } from '../envelope/invalid-message-error.js';
import { decodeEnvelope } from '../envelope/wire.js';
import type { SessionHandle } from '../transport/transport.js';
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
import { type EngineSessionState, modeOf } from './session-state.js';
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

/**
 * Replays parked messages in sequence order through the same path as new ones, inside the session. Stops
 * when the line is empty (back to open, count reset), when a replayed message blocks the session again
 * (the rest stay parked in place), or after the per-settlement budget (a continuation is sent).
 */
export function replayParked(
  ctx: ReplayContext,
  session: SessionHandle,
  state: EngineSessionState,
  effects: EffectsBuilder,
  notices: Notice[],
  alreadyReplayed: number,
  outcomes: SettlementOutcomes,
): Promise<number> {
  return ctx.telemetry.replay(session.sessionId, (link) =>
    replayLine(ctx, session, state, effects, notices, alreadyReplayed, outcomes, link),
  );
}

async function replayLine(
  ctx: ReplayContext,
  session: SessionHandle,
  state: EngineSessionState,
  effects: EffectsBuilder,
  notices: Notice[],
  alreadyReplayed: number,
  outcomes: SettlementOutcomes,
  link: Link,
): Promise<number> {
  let replayed = 0;
  let from = 0;
  const unparked = new Set(effects.unpark);
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
      // Unparked earlier in this same settlement (not applied yet): already handled.
      if (unparked.has(parked.sequence)) continue;
      replayed += 1;
      unparked.add(parked.sequence);
      state.deferredCount = Math.max(0, state.deferredCount - 1);
      let message: MessageEnvelope;
      try {
        message = decodeEnvelope(parked.message);
      } catch (error) {
        const reason =
          error instanceof InvalidMessageError
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
      if (verdict.kind === 'transient') throw new TransientAbort(verdict.error);
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
