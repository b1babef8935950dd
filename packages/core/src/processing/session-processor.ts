import { setMaxListeners } from 'node:events';
import { type Clock, systemClock } from '../clock.js';
import { isRetryableError } from '../errors/nimbus-error.js';
import {
  LifecycleRunner,
  type LifecycleState,
  RunnerLifecycle,
  type StopContext,
  whenAborted,
} from '../lifecycle/service-lifecycle.js';
import { consoleLogger, type Logger } from '../logger.js';
import { countMetric } from '../telemetry/metrics.js';
import { MetricName, TelemetryAttribute, TelemetryScope } from '../telemetry/names.js';
import type { SessionHandle } from '../transport/transport.js';
import { isTransportError, TransportErrorCode } from '../transport/transport-error.js';
import { HandlerCancellation, settlesWithin } from './handler-cancellation.js';
import { LeaseFence } from './lease-fence.js';
import { LockRenewer } from './lock-renewer.js';
import { SessionAccepter } from './session-accepter.js';
import {
  type ProcessorErrorContext,
  type ProcessorErrorSource,
  type ResolvedProcessorOptions,
  resolveProcessorOptions,
  type SessionProcessorOptions,
} from './session-processor-options.js';

/** The processor's place in the one lifecycle (`LifecycleState`). */
export type SessionProcessorState = LifecycleState;

/** Counters since construction, for health views and tests. */
export interface SessionProcessorStats {
  readonly activeSessions: number;
  readonly sessionsAccepted: number;
  readonly sessionsReleased: number;
  readonly messagesHandled: number;
  readonly handlerErrors: number;
  readonly lockLosses: number;
  /** Leases the fence declared lost while held (lapsed, within the safety margin, or a renewal refused). */
  readonly leasesLost: number;
  readonly transportErrors: number;
}

type MutableStats = { -readonly [K in keyof SessionProcessorStats]: number };

const STOPPED = Symbol('stopped');

/** One turn of a session: ends after `maxMessagesPerTurn` received messages or `maxTurnMs` (0 = no limit). */
class TurnBudget {
  readonly #startedAt: number;
  #received = 0;

  constructor(
    private readonly options: Pick<ResolvedProcessorOptions, 'maxMessagesPerTurn' | 'maxTurnMs'>,
    private readonly clock: Clock,
  ) {
    this.#startedAt = clock.now();
  }

  count(received: number): void {
    this.#received += received;
  }

  get used(): boolean {
    const { maxMessagesPerTurn, maxTurnMs } = this.options;
    if (maxMessagesPerTurn > 0 && this.#received >= maxMessagesPerTurn) return true;
    return maxTurnMs > 0 && this.clock.now() - this.#startedAt >= maxTurnMs;
  }
}

/**
 * Runs `maxConcurrentSessions` accept loops over one input. Each accepted session is handled one message at a
 * time in FIFO order for one turn: until it has been idle for `sessionIdleTimeoutMs` or has used its turn budget
 * (`maxMessagesPerTurn`, `maxTurnMs`), then released, so with more active sessions than slots every session is
 * served in turn (the transport hands out the session that has waited longest). Written once above the
 * transport SPI; no transport has its own. On the one lifecycle (`RunnerLifecycle`): a stopped processor is not
 * restarted, create a new one.
 */
export class SessionProcessor extends RunnerLifecycle {
  protected readonly lifecycle: LifecycleRunner;
  readonly #options: ResolvedProcessorOptions;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #onError: SessionProcessorOptions['onError'];
  readonly #stats: MutableStats = {
    activeSessions: 0,
    sessionsAccepted: 0,
    sessionsReleased: 0,
    messagesHandled: 0,
    handlerErrors: 0,
    lockLosses: 0,
    leasesLost: 0,
    transportErrors: 0,
  };
  readonly #stateListeners = new Set<(state: SessionProcessorState) => void>();
  /** Aborted when `stop()` begins: no new accept, receive or message; every accept loop listens on it. */
  readonly #stopController = new AbortController();
  readonly #stopped: Promise<typeof STOPPED>;
  #loops: Promise<void>[] = [];
  /** Since when retryable transport errors keep coming (a database outage), or null: logged once per outage. */
  #outageSince: number | null = null;
  readonly #cancellation: HandlerCancellation;
  readonly #accepter: SessionAccepter;

  constructor(options: SessionProcessorOptions) {
    super();
    this.#options = resolveProcessorOptions(options);
    this.#cancellation = new HandlerCancellation(this.#options.handlerTimeoutMs);
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger ?? consoleLogger;
    this.#onError = options.onError;
    this.#accepter = new SessionAccepter(this.#options);
    const signal = this.#stopController.signal;
    // Every accept loop (and the transport and breaker waits under it) listens on this one signal.
    setMaxListeners(0, signal);
    this.#stopped = whenAborted(signal).then(() => STOPPED);
    this.lifecycle = new LifecycleRunner(
      { start: async () => this.#startLoops(), stop: (context) => this.#drain(context) },
      {
        name: `the session processor of '${this.#options.input}'`,
        onStateChange: (state) => this.#tell(state),
      },
    );
  }

  get running(): boolean {
    return this.state === 'running';
  }

  get stats(): SessionProcessorStats {
    return { ...this.#stats };
  }

  /** Subscribes to state changes; returns the unsubscribe function. */
  onStateChange(listener: (state: SessionProcessorState) => void): () => void {
    this.#stateListeners.add(listener);
    return () => this.#stateListeners.delete(listener);
  }

  #startLoops(): void {
    this.#loops = Array.from({ length: this.#options.maxConcurrentSessions }, (_, slot) =>
      this.#acceptLoop(slot),
    );
  }

  /**
   * `stop()`: stops accepting, lets in-flight messages finish, releases every session, then resolves, within
   * `timeoutMs` (default `drainTimeoutMs`): shortly before it passes (at once on `abort()`) the handlers' signals
   * are aborted (a cancelled handler's message is abandoned); whatever still runs then is left to its lock's expiry.
   */
  async #drain({ timeoutMs = this.#options.drainTimeoutMs, signal }: StopContext): Promise<void> {
    this.#stopController.abort();
    const graceMs = Math.min(1_000, Math.floor(timeoutMs / 4));
    const drained = Promise.all(this.#loops);
    const inTime = await settlesWithin(Promise.race([drained, whenAborted(signal)]), timeoutMs - graceMs);
    if (inTime && !signal.aborted) return;
    this.#cancellation.shutdown(
      signal.aborted
        ? 'the host is stopping without a drain (abort)'
        : `the host is stopping and its ${timeoutMs} ms drain timeout is ending`,
    );
    if (!(await settlesWithin(drained, signal.aborted ? 0 : graceMs)))
      this.#logger.warn(
        { input: this.#options.input, activeSessions: this.#stats.activeSessions, timeoutMs },
        'SessionProcessor stopped with handlers still running; their messages are delivered again when the locks expire',
      );
  }

  #tell(state: SessionProcessorState): void {
    for (const listener of [...this.#stateListeners]) {
      try {
        listener(state);
      } catch (error) {
        this.#logger.error({ error }, 'SessionProcessor state listener threw');
      }
    }
  }

  async #acceptLoop(slot: number): Promise<void> {
    const signal = this.#stopController.signal;
    let consecutiveErrors = 0;
    while (!signal.aborted) {
      let session: SessionHandle | null;
      try {
        session = await this.#accepter.accept(signal);
      } catch (error) {
        if (signal.aborted) break;
        this.#stats.transportErrors += 1;
        this.#report(error, 'accept', undefined, { slot });
        if (isTransportError(error, TransportErrorCode.Closed)) break;
        await this.#backoff(++consecutiveErrors);
        continue;
      }
      this.#recovered();
      if (!session) continue;
      const healthy = await this.#runSession(session);
      consecutiveErrors = healthy ? 0 : consecutiveErrors + 1;
      if (!healthy) await this.#backoff(consecutiveErrors);
    }
  }

  async #backoff(consecutiveErrors: number): Promise<void> {
    const { errorBackoffMs, maxErrorBackoffMs } = this.#options;
    const delay = Math.min(maxErrorBackoffMs, errorBackoffMs * 2 ** Math.min(consecutiveErrors - 1, 10));
    await this.#clock.sleep(delay, this.#stopController.signal);
  }

  /**
   * Handles one session until idle, stop or failure; returns false when it ended on an error. Every handler start
   * is fenced (`LeaseFence.check`): once the lease is not provably held, the messages in hand are dropped unrun.
   */
  async #runSession(session: SessionHandle): Promise<boolean> {
    const { handler, sessionIdleTimeoutMs, receiveBatchSize } = this.#options;
    const sessionId = session.sessionId;
    this.#stats.sessionsAccepted += 1;
    this.#stats.activeSessions += 1;
    const cancel = this.#cancellation.forSession();
    const fence = new LeaseFence(session, this.#clock, this.#options.leaseSafetyMarginMs, cancel, (why) =>
      this.#leaseLost(sessionId, why),
    );
    const renewer = this.#renewer(session, fence);
    fence.watch();
    // Its start only begins the renewal loop; it cannot fail.
    void renewer.start();
    const fenced = () => fence.check();
    let healthy = true;
    try {
      try {
        await handler.onSessionAccepted?.(session);
      } catch (error) {
        this.#report(error, 'onSessionAccepted', sessionId);
        healthy = false;
        return healthy;
      }
      const turn = new TurnBudget(this.#options, this.#clock);
      while (!this.#stopController.signal.aborted && !turn.used) {
        renewer.resetBudget();
        const batch = await this.#receiveUnlessStopped(session, receiveBatchSize, sessionIdleTimeoutMs);
        if (batch === STOPPED || batch.length === 0) break;
        turn.count(batch.length);
        const handleMessages = handler.handleMessages?.bind(handler);
        if (batch.length > 1 && handleMessages) {
          fence.check();
          try {
            const outcome = await this.#cancellation.run(
              cancel.signal,
              () => handleMessages(session, batch),
              fenced,
            );
            const leftUnrun = outcome ? outcome.leftUnrun : 0;
            this.#stats.messagesHandled += batch.length - leftUnrun;
            if (outcome?.error !== undefined) {
              this.#stats.handlerErrors += 1;
              this.#report(outcome.error, 'handler', sessionId, {
                sequences: batch.map((message) => message.sequence),
              });
            }
            // Messages left in hand behind an abandoned one go back with the release, so the next receive starts
            // at the abandoned one (a receive never returns what this lease still holds).
            if (leftUnrun > 0) break;
          } catch (error) {
            if (isTransportError(error, TransportErrorCode.SessionLockLost)) throw error;
            this.#stats.handlerErrors += 1;
            this.#report(error, 'handler', sessionId, {
              sequences: batch.map((message) => message.sequence),
            });
          }
          continue;
        }
        for (const message of batch) {
          if (this.#stopController.signal.aborted) break;
          renewer.resetBudget();
          fence.check();
          try {
            await this.#cancellation.run(
              cancel.signal,
              () => handler.handleMessage(session, message),
              fenced,
            );
            this.#stats.messagesHandled += 1;
          } catch (error) {
            if (isTransportError(error, TransportErrorCode.SessionLockLost)) throw error;
            this.#stats.handlerErrors += 1;
            this.#report(error, 'handler', sessionId, {
              sequence: message.sequence,
              messageId: message.messageId,
            });
          }
        }
      }
    } catch (error) {
      healthy = false;
      if (isTransportError(error, TransportErrorCode.SessionLockLost)) this.#stats.lockLosses += 1;
      else this.#stats.transportErrors += 1;
      this.#report(error, 'session', sessionId);
    } finally {
      await fence.stop();
      await renewer.stop();
      await this.#release(session);
      this.#stats.activeSessions -= 1;
    }
    return healthy;
  }

  /** Renews the session's lease on its own timer; a refused renewal makes the fence declare the lease lost. */
  #renewer(session: SessionHandle, fence: LeaseFence): LockRenewer {
    const { maxAutoLockRenewalDurationMs, leaseRenewalIntervalMs } = this.#options;
    return new LockRenewer(
      session,
      this.#clock,
      maxAutoLockRenewalDurationMs,
      (error) => {
        this.#report(error, 'renewLock', session.sessionId);
        if (isTransportError(error, TransportErrorCode.SessionLockLost))
          fence.lose(`a renewal of its lease was refused (${(error as Error).message})`);
      },
      leaseRenewalIntervalMs,
      (lockedUntil) => fence.renewed(lockedUntil),
    );
  }

  #leaseLost(sessionId: string, why: string): void {
    this.#stats.leasesLost += 1;
    const { input } = this.#options;
    countMetric(TelemetryScope.Consumer, MetricName.SessionLeaseLost, {
      [TelemetryAttribute.DestinationName]: input,
    });
    this.#logger.warn(
      { input, sessionId, leasesLost: this.#stats.leasesLost },
      `Session lease lost: ${why}; no handler of the session starts under this lease, its messages in hand are dropped unrun`,
    );
  }

  /** A receive that gives way to `stop()`; the session is then released, which returns anything unsettled. */
  async #receiveUnlessStopped(session: SessionHandle, max: number, waitMs: number) {
    const receiving = session.receive({ max, waitMs, signal: this.#stopController.signal });
    const winner = await Promise.race([receiving, this.#stopped]);
    if (winner === STOPPED) {
      receiving.catch(() => undefined);
      return STOPPED;
    }
    return winner;
  }

  async #release(session: SessionHandle): Promise<void> {
    try {
      await session.release();
      this.#stats.sessionsReleased += 1;
    } catch (error) {
      if (!isTransportError(error, TransportErrorCode.SessionLockLost))
        this.#report(error, 'release', session.sessionId);
    }
  }

  /** An accept went through: ends an outage and says how long it lasted. */
  #recovered(): void {
    if (this.#outageSince === null) return;
    const downMs = this.#clock.now() - this.#outageSince;
    this.#outageSince = null;
    this.#logger.info(
      { input: this.#options.input, downMs },
      `SessionProcessor recovered after ${downMs} ms`,
    );
  }

  #report(
    error: unknown,
    source: ProcessorErrorSource,
    sessionId?: string,
    extra: Record<string, unknown> = {},
  ): void {
    const context: ProcessorErrorContext = {
      source,
      input: this.#options.input,
      ...(sessionId ? { sessionId } : {}),
    };
    const expected = isRetryableError(error);
    if (expected && this.#outageSince !== null) {
      this.#logger.debug({ ...context, ...extra, error }, `SessionProcessor ${source} failed`);
    } else if (expected) {
      this.#outageSince = this.#clock.now();
      this.#logger.warn(
        { ...context, ...extra, error },
        `SessionProcessor ${source} failed; retrying with back-off (logged again when it recovers)`,
      );
    } else {
      this.#logger.error({ ...context, ...extra, error }, `SessionProcessor ${source} failed`);
    }
    try {
      this.#onError?.(error, context);
    } catch (listenerError) {
      this.#logger.error({ error: listenerError }, 'SessionProcessor onError callback threw');
    }
  }
}
