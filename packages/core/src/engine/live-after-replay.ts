import { MessageType } from '../envelope/message-type.js';
import { continuationRequest, type Notice, TransientAbort, type Work } from './engine-support.js';
import type { SettlementOutcomes } from './outcome-recorder.js';
import { EffectsBuilder, type Verdict } from './plan.js';
import { REPLAY_RETRY_BASE_MS, type ReplayContext, type ReplayRun } from './replay-line.js';
import type { EngineSessionState } from './session-state.js';
import type { SessionReads } from './settlements.js';

export interface LiveSettlement {
  readonly work: Work;
  readonly state: EngineSessionState;
  readonly effects: EffectsBuilder;
  readonly notices: Notice[];
  readonly outcomes: SettlementOutcomes;
  readonly run: ReplayRun;
  /** How many parked messages this settlement already replayed before the live message. */
  readonly replayed: number;
}

/**
 * Runs the live message of a settlement. A transient failure normally abandons the whole settlement (the
 * message is delivered again). But when this settlement replayed parked messages first, abandoning would undo
 * their unparking, and the next delivery would run them again after later events had succeeded (a reorder the
 * chaos suite's long form caught). Then the live message is parked at the end of the line instead, what was
 * replayed is settled, and a continuation retries the line with the replay's back-off (a replayed message
 * that keeps failing transiently is dead-lettered after `MAX_REPLAY_TRANSIENT_ATTEMPTS`).
 */
export async function processLive(
  ctx: ReplayContext,
  session: SessionReads,
  live: LiveSettlement,
): Promise<Verdict> {
  const { work, state, effects, run } = live;
  const own = new EffectsBuilder();
  const verdict = await ctx.process(work, state, own, live.notices, live.outcomes);
  if (verdict.kind !== 'transient') {
    effects.append(own);
    return verdict;
  }
  // Only an event is parked (what the line holds); anything else is delivered again as before.
  if (live.replayed === 0 || work.message.messageType !== MessageType.EventRequest)
    throw new TransientAbort(verdict.error);
  const { deps } = ctx;
  effects.responses.push(deps.responses.deferral(work.message, null));
  effects.park.push({ sequence: state.nextSequence, message: work.transportMessage });
  state.nextSequence += 1;
  state.deferredCount += 1;
  state.replaying = true;
  run.stalled = true;
  effects.scheduled.push({
    envelope: { ...continuationRequest(deps, session.sessionId), retryCount: run.attempt + 1 },
    at: new Date(deps.clock.now() + REPLAY_RETRY_BASE_MS),
  });
  deps.logger.warn(
    {
      sessionId: session.sessionId,
      eventId: work.message.eventId,
      replayed: live.replayed,
      error: String(verdict.error),
    },
    'A message failed transiently after this settlement replayed parked ones; it is parked at the end of the line and the line is retried.',
  );
  return { kind: 'parked', blockedByEventId: null };
}
