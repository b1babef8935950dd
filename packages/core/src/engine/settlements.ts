import type {
  DeadLetterOptions,
  ReceivedMessage,
  SessionHandle,
  SettleEffects,
} from '../transport/transport.js';
import { deadLetterUnsettleable, isUnsettleable } from './engine-support.js';
import { isLeaseRefusal, reportRefusedSettlement } from './settlement-refusal.js';
import type { EngineDeps } from './step.js';

/**
 * How the engine settles the messages of a session: one at a time (`ImmediateSettlements`) or planned for a
 * received batch and committed together (`SettlementBatch`).
 */
export interface Settlements {
  complete(message: ReceivedMessage, effects?: SettleEffects): Promise<void>;
  deadLetter(message: ReceivedMessage, options: DeadLetterOptions): Promise<void>;
  /** Commits what is planned first: the abandoned message is delivered again after it. */
  abandon(message: ReceivedMessage): Promise<void>;
  /** Commits what is planned (before the engine reads the session, so that it reads it applied). */
  commit(): Promise<void>;
  /** Runs `work` once the settlements planned so far are committed. */
  afterCommit(work: () => Promise<void>): Promise<void>;
  /** The transport refused the settlement of `received` with `error`: settles it otherwise, or rethrows. */
  refused(received: ReceivedMessage, error: unknown): Promise<void>;
}

/** Each settlement is applied at once; a refused one is reported and, when refused for good, dead-lettered alone. */
export class ImmediateSettlements implements Settlements {
  constructor(
    private readonly session: SessionHandle,
    private readonly deps: EngineDeps,
  ) {}

  complete(message: ReceivedMessage, effects?: SettleEffects): Promise<void> {
    return this.session.complete(message, effects);
  }

  deadLetter(message: ReceivedMessage, options: DeadLetterOptions): Promise<void> {
    return this.session.deadLetter(message, options);
  }

  abandon(message: ReceivedMessage): Promise<void> {
    return this.session.abandon(message);
  }

  async commit(): Promise<void> {}

  afterCommit(work: () => Promise<void>): Promise<void> {
    return work();
  }

  async refused(received: ReceivedMessage, error: unknown): Promise<void> {
    if (isLeaseRefusal(error))
      reportRefusedSettlement(this.deps.logger, this.deps.endpointId, this.session, 1, error);
    if (!isUnsettleable(error)) throw error;
    await deadLetterUnsettleable(this.deps, this.session, received, error);
  }
}

/** The session reads the engine makes: each commits what is planned first. */
export type SessionReads = Pick<SessionHandle, 'sessionId' | 'getState' | 'readParked'>;

export function committedReads(session: SessionHandle, settlements: Settlements): SessionReads {
  return {
    sessionId: session.sessionId,
    async getState() {
      await settlements.commit();
      return session.getState();
    },
    async readParked(fromSequence, max) {
      await settlements.commit();
      return session.readParked(fromSequence, max);
    },
  };
}
