import {
  type Clock,
  childLogger,
  consoleLogger,
  type Endpoint,
  type EndpointCircuitBreaker,
  type EngineHandlingOptions,
  gateTransport,
  LifecycleRunner,
  type Logger,
  MessageEngine,
  NimBusError,
  NimBusErrorCode,
  type Platform,
  RunnerLifecycle,
  SessionProcessor,
  type SessionProcessorOptions,
  type StopContext,
  stopChild,
  systemClock,
  type Transport,
} from '@nimbus/core';
import { assertCustomCheck, type CustomCheck, CustomCheckRunner } from './custom-checks.js';
import { assertEndpointInbox, EndpointHostConfigurationError, type EndpointInbox } from './endpoint-inbox.js';
import { HandoffClient } from './handoff-client.js';
import { DEFAULT_PAUSE_POLL_MS, PauseWatch, pausableTransport } from './pause-watch.js';
import { Publisher } from './publisher.js';
import type { Subscriber } from './subscriber.js';

export interface EndpointHostOptions extends EngineHandlingOptions {
  readonly platform: Platform;
  /** The endpoint to run: its id or its definition; it must be part of the platform. */
  readonly endpoint: string | Endpoint;
  readonly transport: Transport;
  readonly subscriber: Subscriber;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Session processor tuning (concurrency, idle timeout, lock renewal, prefetch). */
  readonly processor?: Omit<SessionProcessorOptions, 'transport' | 'input' | 'handler' | 'clock' | 'logger'>;
  /**
   * Consumer deduplication: a redelivery of a message this endpoint already handled is answered with a
   * `SkipResponse` (DuplicateDetected) and its handler is not run again. Absent: no inbox. Its cleanup runs
   * while the host runs.
   */
  readonly inbox?: EndpointInbox;
  /**
   * Pauses receiving while the system behind the handlers is down: the engine reports every handler outcome
   * to the breaker, and the processor receives through `gateTransport`, so an open breaker takes no message.
   */
  readonly circuitBreaker?: EndpointCircuitBreaker;
  /**
   * Health checks run while the host runs; their results are shown in the console (custom checks) and can
   * alert. Needs a transport that keeps control state (`transport.control`: the SQL and memory transports).
   */
  readonly customChecks?: readonly CustomCheck[];
  /** How often the host re-reads whether the console paused its input (default 1000 ms). */
  readonly pausePollMs?: number;
}

/**
 * A receiving endpoint: the session processor over the endpoint's input, feeding the workflow engine,
 * which runs the subscriber's handlers. Also gives a publisher and a handoff client bound to the endpoint.
 */
export class EndpointHost extends RunnerLifecycle {
  protected readonly lifecycle: LifecycleRunner;
  readonly endpoint: Endpoint;
  readonly engine: MessageEngine;
  readonly publisher: Publisher;
  readonly handoff: HandoffClient;
  readonly processor: SessionProcessor;
  readonly circuitBreaker: EndpointCircuitBreaker | null;
  readonly #inbox: EndpointInbox | null;
  #stopCleanup: (() => Promise<void>) | null = null;
  readonly #pause: PauseWatch | null;
  readonly #checks: CustomCheck[] = [];
  readonly #checkRunner: () => CustomCheckRunner | null;
  #runningChecks: CustomCheckRunner | null = null;

  constructor(options: EndpointHostOptions) {
    super();
    const endpoint =
      typeof options.endpoint === 'string'
        ? options.platform.getEndpoint(options.endpoint)
        : options.endpoint;
    if (!endpoint || options.platform.getEndpoint(endpoint.id) !== endpoint) {
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        `Endpoint '${String(typeof options.endpoint === 'string' ? options.endpoint : options.endpoint?.id)}' is not part of the platform.`,
      );
    }
    // Every line this host's engine and processor write names the endpoint.
    const logger = options.logger ? childLogger(options.logger, { endpoint: endpoint.id }) : undefined;
    for (const id of options.subscriber.eventTypeIds) {
      if (!endpoint.consumes.some((type) => type.id === id)) {
        throw new NimBusError(
          NimBusErrorCode.InvalidArgument,
          `Endpoint '${endpoint.id}' has a handler for '${id}' but does not declare that it consumes it; no message of that type would arrive.`,
        );
      }
    }
    if (options.inbox !== undefined) assertEndpointInbox(options.inbox, endpoint.id);
    const breaker = options.circuitBreaker ?? null;
    if (breaker !== null) {
      if (
        typeof breaker.recordSuccess !== 'function' ||
        typeof breaker.waitUntilRequestAllowed !== 'function'
      ) {
        throw new EndpointHostConfigurationError(
          `The circuitBreaker of endpoint '${endpoint.id}' must be an EndpointCircuitBreaker from @nimbus/core.`,
        );
      }
      if ((options.processor?.prefetchCount ?? 0) > 0) {
        throw new EndpointHostConfigurationError(
          `Endpoint '${endpoint.id}' has a circuit breaker and prefetchCount > 0: prefetched messages would be taken while the breaker is open. Leave prefetchCount at 0.`,
        );
      }
    }
    this.circuitBreaker = breaker;
    this.#inbox = options.inbox ?? null;
    this.endpoint = endpoint;
    this.publisher = new Publisher({ transport: options.transport, endpoint, clock: options.clock });
    options.subscriber.bindEndpoint(endpoint.id).usePublisher(this.publisher);
    this.handoff = new HandoffClient(options.transport, endpoint.id);
    this.engine = new MessageEngine({
      endpointId: endpoint.id,
      handler: options.subscriber.asContextHandler(),
      clock: options.clock,
      logger,
      retryPolicies: options.retryPolicies,
      failureClassifier: options.failureClassifier,
      behaviours: options.behaviours,
      observers: options.observers,
      inbox: this.#inbox,
      circuitBreaker: breaker,
      messagingSystem: options.transport.name,
    });
    const control = options.transport.control ?? null;
    const hostLogger = logger ?? consoleLogger;
    // The console's pause: a flag in the transport's control state that this host polls.
    this.#pause = control
      ? new PauseWatch(control, endpoint.id, options.pausePollMs ?? DEFAULT_PAUSE_POLL_MS, hostLogger)
      : null;
    this.lifecycle = new LifecycleRunner(
      { start: () => this.#start(), stop: (context) => this.#stop(context) },
      { name: `the endpoint host of '${endpoint.id}'` },
    );
    for (const check of options.customChecks ?? []) this.addCustomCheck(check);
    this.#checkRunner = () =>
      control && this.#checks.length > 0
        ? new CustomCheckRunner(endpoint.id, this.#checks, control, options.clock ?? systemClock, hostLogger)
        : null;
    const receiving = breaker ? gateTransport(options.transport, breaker) : options.transport;
    this.processor = new SessionProcessor({
      ...options.processor,
      transport: this.#pause ? pausableTransport(receiving, this.#pause) : receiving,
      input: endpoint.id,
      handler: this.engine,
      clock: options.clock,
      logger,
    });
  }

  /** Registers a custom check (before `start()`); see `EndpointHostOptions.customChecks`. */
  addCustomCheck(check: CustomCheck): this {
    if (this.state !== 'created')
      throw new EndpointHostConfigurationError('Register custom checks before start().');
    assertCustomCheck(check, this.#checks);
    if (!this.#pause)
      throw new EndpointHostConfigurationError(
        `Custom check '${check.name}' of endpoint '${this.endpoint.id}' needs a transport that keeps control state (transport.control, e.g. the SQL, Service Bus or memory transport).`,
      );
    this.#checks.push(check);
    return this;
  }

  async #start(): Promise<void> {
    await this.#pause?.start();
    this.#runningChecks = this.#checkRunner();
    await this.#runningChecks?.start();
    await this.processor.start();
    if (this.#inbox?.startCleanup) this.#stopCleanup = this.#inbox.startCleanup(this.endpoint.id);
  }

  /**
   * `stop()`: stops taking sessions, lets the messages in hand finish within `timeoutMs` (default: the processor's
   * `drainTimeoutMs`, 30 s; near its end, or at once on `abort()`, handlers' signals are aborted and their messages
   * abandoned), stops the inbox cleanup. A stopped host is not started again: create a new one.
   */
  async #stop(context: StopContext): Promise<void> {
    await stopChild(this.processor, context);
    this.#pause?.stop();
    this.#runningChecks?.stop();
    await this.#stopCleanup?.();
  }
}

export function createEndpointHost(options: EndpointHostOptions): EndpointHost {
  return new EndpointHost(options);
}
