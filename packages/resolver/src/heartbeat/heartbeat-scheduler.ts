import {
  Addresses,
  type Clock,
  consoleLogger,
  type Logger,
  loopLifecycle,
  Platform,
  type ServiceLifecycle,
  systemClock,
  type Transport,
  uuidv7,
  withLifecycle,
} from '@nimbus/core';
import {
  type EndpointMetadataStore,
  type HeartbeatHistoryStore,
  type HeartbeatSettings,
  HeartbeatStatus,
  type ServiceHealthStore,
} from '@nimbus/message-store';
import { refuseNotifier } from '../notifier-refusal.js';
import { describeError } from '../store-errors.js';
import { RESOLVER_SERVICE_ID } from '../version.js';
import { heartbeatProbe } from './heartbeat-probe.js';
import { runHeartbeatHistoryFold } from './history-fold-run.js';

export const HEARTBEAT_TICK_MS = 30_000;
export const MIN_INTERVAL_SECONDS = 30;
export const MIN_TIMEOUT_SECONDS = 5;

export type HeartbeatSchedulerStore = Pick<
  EndpointMetadataStore,
  | 'getMetadatas'
  | 'setHeartbeat'
  | 'sweepTimedOutHeartbeats'
  | 'getHeartbeatSettings'
  | 'tryClaimHeartbeatSend'
> &
  Pick<ServiceHealthStore, 'tryClaimServiceProbe' | 'sweepTimedOutServiceProbes'> &
  Partial<HeartbeatHistoryStore>;

export interface HeartbeatSchedulerArgs {
  readonly transport: Transport;
  readonly store: HeartbeatSchedulerStore;
  /** The endpoints that may be probed: a platform (its `heartbeat: false` endpoints are left out) or ids. */
  readonly catalog: Platform | readonly string[];
  /** Refused: the store notifies (its notification link tells the notifier after each committed write). */
  readonly notifier?: never;
  readonly logger?: Logger;
  readonly clock?: Clock;
  /** Pause between ticks. Default 30 s. */
  readonly tickMs?: number;
}

export interface HeartbeatTickResult {
  readonly sweptEndpoints: readonly string[];
  readonly sweptServices: readonly string[];
  readonly folded: boolean;
  readonly resolverProbed: boolean;
  /** Endpoints probed in this tick (0 when another instance holds the send claim, or sending is disabled). */
  readonly probesSent: number;
}

/**
 * On the one lifecycle (`ServiceLifecycle`): `start()` runs a tick every `tickMs`; `stop({ timeoutMs })` lets the
 * tick under way finish (within `timeoutMs`, then it is left to end on its own); a stopped scheduler is not
 * started again.
 */
export interface HeartbeatScheduler extends ServiceLifecycle {
  /** One scheduled pass: sweep, fold, probe the Resolver, claim and send. Never throws. */
  tick(): Promise<HeartbeatTickResult>;
  /** Sends probes to every eligible endpoint now, whatever the schedule says ("send now"). */
  sendNow(): Promise<number>;
}

const seconds = (s: number) => s * 1000;

/**
 * Sends the platform heartbeat on a schedule. Every step that must happen once per interval across
 * instances goes through an atomic claim in the store, so any number of schedulers can run.
 */
export function createHeartbeatScheduler(args: HeartbeatSchedulerArgs): HeartbeatScheduler {
  refuseNotifier(args, 'createHeartbeatScheduler');
  const { transport, store } = args;
  const logger = args.logger ?? consoleLogger;
  const clock = args.clock ?? systemClock;
  const tickMs = args.tickMs ?? HEARTBEAT_TICK_MS;

  function catalogIds(): string[] {
    if (args.catalog instanceof Platform) {
      return args.catalog.endpoints.filter((e) => e.heartbeat !== false).map((e) => e.id);
    }
    return [...args.catalog];
  }

  /** Fan-out is opt-out: endpoints never configured are probed; an explicit opt-out (any casing) wins. */
  async function eligibleEndpoints(): Promise<string[]> {
    const ids = catalogIds();
    const optedOut = new Set(
      (await store.getMetadatas())
        .filter((m) => m.isHeartbeatEnabled === false)
        .map((m) => m.endpointId.toLowerCase()),
    );
    return ids.filter((id) => !optedOut.has(id.toLowerCase()));
  }

  async function send(settings: HeartbeatSettings): Promise<number> {
    const endpoints = await eligibleEndpoints();
    const intervalSeconds = Math.max(settings.intervalSeconds, MIN_INTERVAL_SECONDS);
    let sent = 0;
    for (const endpointId of endpoints) {
      const now = new Date(clock.now());
      const probeId = uuidv7(now.getTime());
      try {
        // The row exists before the probe leaves: a fast answer then settles this same row.
        await store.setHeartbeat({
          endpointId,
          heartbeat: {
            messageId: probeId,
            startTime: now,
            receivedTime: now,
            endTime: now,
            intervalSeconds,
            sdkVersion: null,
            endpointHeartbeatStatus: HeartbeatStatus.Pending,
          },
        });
        await transport.publish([
          { source: endpointId, messages: [heartbeatProbe(endpointId, probeId, now)] },
        ]);
        sent += 1;
      } catch (error) {
        logger.warn(
          { endpointId, error: describeError(error) },
          'Heartbeat probe not sent; the sweep settles it',
        );
      }
    }
    return sent;
  }

  async function step<T>(name: string, fallback: T, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      logger.warn({ step: name, error: describeError(error) }, 'Heartbeat tick step failed');
      return fallback;
    }
  }

  async function tick(): Promise<HeartbeatTickResult> {
    const settings = await step('settings', null, () => store.getHeartbeatSettings());
    if (!settings) {
      return { sweptEndpoints: [], sweptServices: [], folded: false, resolverProbed: false, probesSent: 0 };
    }
    const now = clock.now();
    const intervalMs = seconds(Math.max(settings.intervalSeconds, MIN_INTERVAL_SECONDS));
    const cutoff = new Date(now - seconds(Math.max(settings.timeoutSeconds, MIN_TIMEOUT_SECONDS)));
    const dueBefore = new Date(now - intervalMs);

    const sweptEndpoints = await step('sweep endpoints', [] as string[], () =>
      store.sweepTimedOutHeartbeats(cutoff),
    );
    const sweptServices = await step('sweep services', [] as string[], () =>
      store.sweepTimedOutServiceProbes(cutoff),
    );

    const folded = await step('fold history', false, () =>
      runHeartbeatHistoryFold(store, catalogIds(), dueBefore, new Date(now), intervalMs / 1000),
    );

    const resolverProbed = await step('probe resolver', false, async () => {
      const probeId = uuidv7(now);
      if (
        !(await store.tryClaimServiceProbe({
          serviceId: RESOLVER_SERVICE_ID,
          dueBefore,
          probeMessageId: probeId,
        }))
      )
        return false;
      const probe = heartbeatProbe(Addresses.resolver, probeId, new Date(now));
      await transport.publish([{ source: Addresses.manager, messages: [probe] }]);
      return true;
    });

    const probesSent = await step('send probes', 0, async () =>
      (await store.tryClaimHeartbeatSend(dueBefore)) ? send(settings) : 0,
    );
    return { sweptEndpoints, sweptServices, folded, resolverProbed, probesSent };
  }

  const lifecycle = loopLifecycle(
    async ({ stopping }) => {
      while (!stopping.aborted) {
        await tick();
        await clock.sleep(tickMs, stopping);
      }
    },
    { name: 'the heartbeat scheduler' },
  );
  const scheduler = {
    tick,
    async sendNow() {
      return send(await store.getHeartbeatSettings());
    },
  };
  return withLifecycle(scheduler, lifecycle);
}
