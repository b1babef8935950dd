import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock, LifecycleRunner, Logger, Transport } from '@nimbus/core';
import { loopLifecycle, RunnerLifecycle, uuidv7, whenAborted } from '@nimbus/core';
import type { HeartbeatHistoryStore, NimBusMessageStore } from '@nimbus/message-store';
import type { EndpointCatalog } from '../app/endpoint-catalog.js';
import { AlertEvaluator } from './alert-evaluator.js';
import { AlertSender, DEFAULT_RETRY_POLICY, type RetryPolicy } from './alert-sender.js';
import { type AlertStore, createMemoryAlertStore } from './alert-store.js';
import { createSmtpMailer, type Mailer, type SmtpSettings } from './mailer.js';

/** Finished deliveries (and signatures not seen) are kept this long. */
const KEEP_MS = 7 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;

/** `createWebApp({ alerts })`. */
export interface AlertOptions {
  /**
   * Where alert state lives (default: in memory). Give every WebApp instance the same SQL one
   * (`createSqlAlertStore`) so each alert is raised and sent once. The WebApp does not close it.
   */
  readonly store?: AlertStore;
  /** E-mail subscriptions need it; without it they cannot be created. */
  readonly smtp?: SmtpSettings;
  /** How often subscriptions are evaluated and due deliveries sent (default 15 000 ms); 0 = never by itself. */
  readonly everyMs?: number;
  /** A failure signature absent this long is a new group again when it comes back (default 1 h). */
  readonly quietMs?: number;
  /**
   * An alert thread (one failure group, the sessions blocked by one cause) sends an update at most once per
   * this window when its counts change (default 300 000 ms = 5 min); a subscription's `digestMinutes` wins.
   */
  readonly digestMs?: number;
  /** Deliveries per subscription and hour, at most (default 30); the rest wait for the window to free up. */
  readonly maxPerHour?: number;
  readonly retry?: Partial<RetryPolicy>;
  /** Per webhook call and SMTP exchange (default 10 000 ms). */
  readonly timeoutMs?: number;
  /**
   * Lets webhooks target loopback, private, link-local and reserved addresses (default `false`: such a url
   * is refused when subscribing, and a name resolving there fails at delivery). An operator setting only.
   */
  readonly allowPrivateWebhookTargets?: boolean;
}

/**
 * The alert loop of one WebApp instance: evaluate, claim, send, retry. On the one lifecycle (`RunnerLifecycle`):
 * `stop({ timeoutMs })` lets the round under way finish, `abort()` does not wait; a stopped one is not restarted.
 */
export class Alerting extends RunnerLifecycle {
  protected readonly lifecycle: LifecycleRunner;
  readonly store: AlertStore;
  readonly mailConfigured: boolean;
  readonly allowPrivateWebhookTargets: boolean;
  readonly #evaluator: AlertEvaluator;
  readonly #sender: AlertSender;
  readonly #mailer: Mailer | null;
  readonly #everyMs: number;
  readonly #logger: Logger;
  readonly #clock: Clock;
  #prunedAt = 0;
  /** The round under way (the loop's or a `runOnce()` caller's): rounds never overlap in one instance. */
  #running: Promise<void> | null = null;

  constructor(
    deps: {
      store: NimBusMessageStore & Partial<HeartbeatHistoryStore>;
      catalog: EndpointCatalog;
      clock: Clock;
      logger: Logger;
      transport?: Transport;
    },
    options: AlertOptions = {},
  ) {
    super();
    this.store = options.store ?? createMemoryAlertStore();
    this.#mailer = options.smtp ? createSmtpMailer(options.smtp) : null;
    this.mailConfigured = this.#mailer !== null;
    this.allowPrivateWebhookTargets = options.allowPrivateWebhookTargets ?? false;
    this.#everyMs = options.everyMs ?? 15_000;
    this.#logger = deps.logger;
    this.#clock = deps.clock;
    this.#evaluator = new AlertEvaluator({
      ...deps,
      alertStore: this.store,
      logger: deps.logger,
      quietMs: options.quietMs ?? 3_600_000,
      digestMs: options.digestMs ?? 300_000,
      maxPerHour: options.maxPerHour ?? 30,
    });
    this.#sender = new AlertSender({
      store: deps.store,
      alertStore: this.store,
      mailer: this.#mailer,
      clock: deps.clock,
      logger: deps.logger,
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
      owner: uuidv7(),
      timeoutMs: options.timeoutMs ?? 10_000,
      allowPrivateWebhookTargets: this.allowPrivateWebhookTargets,
    });
    this.lifecycle = loopLifecycle(({ stopping }) => this.#loop(stopping), {
      name: 'the alert loop',
      release: async (abandon) => {
        await Promise.race([this.#running?.catch(() => undefined), whenAborted(abandon)]);
        this.#mailer?.close();
      },
    });
  }

  get evaluator(): AlertEvaluator {
    return this.#evaluator;
  }

  /** One round: find new alerts, then send what is due. Never two rounds at once in one instance. */
  runOnce(): Promise<void> {
    this.#running ??= (async () => {
      try {
        await this.#evaluator.evaluate();
        await this.#sender.sendDue();
        const now = this.#clock.now();
        if (now - this.#prunedAt > PRUNE_EVERY_MS) {
          this.#prunedAt = now;
          await this.store.prune(now - KEEP_MS);
        }
      } finally {
        this.#running = null;
      }
    })();
    return this.#running;
  }

  /** A round every `everyMs` (real time, not holding the process open); none when `everyMs` is 0. */
  async #loop(stopping: AbortSignal): Promise<void> {
    if (this.#everyMs <= 0) return;
    while (!stopping.aborted) {
      const slept = await sleep(this.#everyMs, true, { signal: stopping, ref: false }).catch(() => false);
      if (!slept) return;
      await this.runOnce().catch((error: Error) =>
        this.#logger.error({ err: error.message }, 'Alert round failed; the next round retries'),
      );
    }
  }
}
