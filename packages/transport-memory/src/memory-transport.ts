import {
  type AcceptOptions,
  type Clock,
  type DeadLetteredMessage,
  LifecycleRunner,
  MemoryInputControl,
  NimBusError,
  NimBusErrorCode,
  type PeekedMessage,
  type PublishRequest,
  type PurgeTarget,
  RunnerLifecycle,
  type ScheduleHandle,
  type SessionHandle,
  systemClock,
  type Topology,
  type TopologyChanges,
  type Transport,
  type TransportCapabilities,
  type TransportCounts,
  TransportError,
  TransportErrorCode,
  type TransportMessage,
} from '@nimbus/core';
import { MemoryCore } from './memory-core.js';
import { applyPublish, assertBatchSize, cancelScheduled, planPublish, schedule } from './publish.js';
import { MemorySessionHandle } from './session-handle.js';
import { tryLease } from './session-lease.js';
import { applyTopology } from './topology-apply.js';

export interface MemoryTransportOptions {
  /** Time source for visibility, locks and waits; inject a `ManualClock` in tests. */
  readonly clock?: Clock;
  readonly lockDurationMs?: number;
  readonly maxDeliveryCount?: number;
  readonly maxBatchBytes?: number;
}

const DEFAULTS = { lockDurationMs: 30_000, maxDeliveryCount: 10, maxBatchBytes: 256 * 1024 } as const;

/**
 * An in-process transport with Service Bus session semantics; for tests, `nimbus dev` and examples. Usable from
 * construction (`running`); `stop()` (= `close()`, and `abort()`: nothing to drain) ends every waiting accept and
 * receive with `Closed`, and later calls fail with `Closed`.
 */
export class MemoryTransport extends RunnerLifecycle implements Transport {
  readonly name = 'memory';
  readonly capabilities: TransportCapabilities;
  readonly #core: MemoryCore;
  readonly control: MemoryInputControl;
  protected readonly lifecycle = new LifecycleRunner(
    { stop: async () => this.#core.shutDown() },
    { name: 'the memory transport', closedError: (m) => new TransportError(TransportErrorCode.Closed, m) },
  );

  constructor(options: MemoryTransportOptions = {}) {
    super();
    const lockDurationMs = positiveInteger(
      'lockDurationMs',
      options.lockDurationMs ?? DEFAULTS.lockDurationMs,
    );
    const maxDeliveryCount = positiveInteger(
      'maxDeliveryCount',
      options.maxDeliveryCount ?? DEFAULTS.maxDeliveryCount,
    );
    const maxBatchBytes = positiveInteger('maxBatchBytes', options.maxBatchBytes ?? DEFAULTS.maxBatchBytes);
    this.capabilities = {
      atomicSettleAndPublish: true,
      settleMany: true,
      nativeScheduling: true,
      maxBatchBytes,
      maxDeliveryCount,
      lockDurationMs,
    };
    const clock = options.clock ?? systemClock;
    this.control = new MemoryInputControl(() => clock.now());
    this.#core = new MemoryCore({ clock, lockDurationMs, maxDeliveryCount, maxBatchBytes }, this.lifecycle);
  }

  async applyTopology(topology: Topology): Promise<TopologyChanges> {
    return applyTopology(this.#core, topology);
  }

  async getTopology(): Promise<Topology> {
    this.lifecycle.assertUsable('getTopology');
    return this.#core.topology;
  }

  async publish(requests: readonly PublishRequest[]): Promise<void> {
    this.lifecycle.assertUsable('publish');
    assertBatchSize(this.#core, requests);
    this.#core.promoteDue();
    applyPublish(this.#core, planPublish(this.#core, requests));
  }

  async schedule(source: string, message: TransportMessage, at: Date): Promise<ScheduleHandle> {
    this.lifecycle.assertUsable('schedule');
    assertBatchSize(this.#core, [{ source, messages: [message] }]);
    if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
      throw new TransportError(TransportErrorCode.InvalidArgument, 'schedule: at must be a valid Date');
    }
    return { id: schedule(this.#core, source, message, at), source };
  }

  async cancelScheduled(handle: ScheduleHandle): Promise<void> {
    this.lifecycle.assertUsable('cancelScheduled');
    cancelScheduled(this.#core, handle.id, handle.source);
  }

  async acceptSession(input: string, options: AcceptOptions): Promise<SessionHandle | null> {
    const core = this.#core;
    this.lifecycle.assertUsable('acceptSession');
    core.assertInput(input);
    if (!(options.waitMs >= 0))
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        `acceptSession: waitMs must be ≥ 0, got ${options.waitMs}`,
      );
    const deadline = core.now() + options.waitMs;
    let woken = false;
    for (;;) {
      this.lifecycle.assertUsable('acceptSession');
      if (options.signal?.aborted) return null;
      const lease = tryLease(core, input, options.sessionId ?? null);
      if (lease) {
        core.waiters.taken(input, lease.entry.sessionId);
        if (woken && !options.sessionId) core.waiters.passOn(input);
        return new MemorySessionHandle(core, lease.entry, lease.token);
      }
      const now = core.now();
      if (now >= deadline) return null;
      const wakeAt = Math.min(deadline, core.nextWakeTime());
      woken =
        (await core.waiters.wait(input, options.sessionId ?? null, wakeAt - now, {
          ...(options.signal ? { signal: options.signal } : {}),
        })) === 'work';
    }
  }

  async peek(
    input: string,
    options?: { readonly max?: number; readonly sessionId?: string },
  ): Promise<PeekedMessage[]> {
    this.lifecycle.assertUsable('peek');
    return this.#core.views.peek(input, options?.max ?? 100, options?.sessionId);
  }

  async counts(input: string): Promise<TransportCounts> {
    this.lifecycle.assertUsable('counts');
    return this.#core.views.counts(input);
  }

  async peekDeadLetters(input: string, max = 100): Promise<DeadLetteredMessage[]> {
    this.lifecycle.assertUsable('peekDeadLetters');
    return this.#core.views.peekDeadLetters(input, max);
  }

  async requeueDeadLetters(input: string, ids?: readonly string[]): Promise<number> {
    this.lifecycle.assertUsable('requeueDeadLetters');
    return this.#core.views.requeueDeadLetters(input, ids);
  }

  async purge(input: string, target: PurgeTarget): Promise<number> {
    this.lifecycle.assertUsable('purge');
    return this.#core.views.purge(input, target);
  }
}

export function createMemoryTransport(options?: MemoryTransportOptions): MemoryTransport {
  return new MemoryTransport(options);
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `MemoryTransport option ${name} must be a positive integer, got ${String(value)}`,
    );
  }
  return value;
}
