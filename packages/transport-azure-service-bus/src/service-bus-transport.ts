import { DefaultAzureCredential } from '@azure/identity';
import {
  ServiceBusAdministrationClient,
  ServiceBusClient,
  type ServiceBusReceivedMessage,
} from '@azure/service-bus';
import {
  type AcceptOptions,
  type DeadLetteredMessage,
  LifecycleRunner,
  NimBusError,
  NimBusErrorCode,
  type PeekedMessage,
  type PublishRequest,
  type PurgeTarget,
  RunnerLifecycle,
  type ScheduleHandle,
  type SessionHandle,
  type Topology,
  type TopologyChanges,
  type Transport,
  type TransportCapabilities,
  type TransportCounts,
  TransportError,
  TransportErrorCode,
  type TransportMessage,
  whenAborted,
} from '@nimbus/core';
import { assertPublishBatchSize } from '@nimbus/core/transport-spi';
import Long from 'long';
import { acceptNamed, acceptNext } from './accept.js';
import { guarded } from './errors.js';
import { NextSessionTurns } from './next-session-turns.js';
import { OperatorViews } from './operator-views.js';
import { DEFAULT_OPTIONS, MAX_BATCH_BYTES, type ServiceBusTransportOptions } from './options.js';
import { knownInputs, Publisher } from './publisher.js';
import { ServiceBusInputControl } from './service-bus-input-control.js';
import { type HeldSession, ServiceBusSessionHandle, type TransportLife } from './session-handle.js';
import { disableNagle } from './socket-tuning.js';
import { applyTopology, readTopology } from './topology-apply.js';
import { unlessClosing } from './unless-closing.js';

function clients(options: ServiceBusTransportOptions, timeoutInMs: number, acceptPollMs: number) {
  const retryOptions = { maxRetries: 3, retryDelayInMs: 200, timeoutInMs };
  // Accepting the next session asks with a short server-side timeout and asks again until the wait is over.
  const pollOptions = { retryOptions: { maxRetries: 0, timeoutInMs: acceptPollMs } };
  const adminOptions = {
    ...(options.managementCa ? { tlsOptions: { ca: options.managementCa } } : {}),
    retryOptions: { maxRetries: 3 },
  } as never;
  if (options.connectionString) {
    return {
      client: new ServiceBusClient(options.connectionString, { retryOptions }),
      pollClient: new ServiceBusClient(options.connectionString, pollOptions),
      admin: new ServiceBusAdministrationClient(options.connectionString, adminOptions),
    };
  }
  if (!options.namespace) {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      'ServiceBusTransport: give a connectionString, or a namespace (with an optional credential)',
    );
  }
  const credential = options.credential ?? new DefaultAzureCredential();
  return {
    client: new ServiceBusClient(options.namespace, credential, { retryOptions }),
    pollClient: new ServiceBusClient(options.namespace, credential, pollOptions),
    admin: new ServiceBusAdministrationClient(options.namespace, credential, adminOptions),
  };
}

/**
 * The NimBus transport on Azure Service Bus; see docs/transport-azure-service-bus.md for the mapping and its limits.
 * Usable from construction (`running`; connections open on first use). `stop({ timeoutMs })` (= `close()`): later
 * calls fail with `Closed`, waiting accepts and receives end with it at once, held sessions are released (for at
 * most `timeoutMs`), then the clients close. `abort()`: the same without releasing the held sessions first.
 */
export class ServiceBusTransport extends RunnerLifecycle implements Transport {
  readonly name = 'servicebus';
  readonly capabilities: TransportCapabilities;
  readonly #client: ServiceBusClient;
  readonly #pollClient: ServiceBusClient;
  readonly #acceptClients: { readonly client: ServiceBusClient; readonly pollClient: ServiceBusClient };
  readonly #nextSessionTurns = new NextSessionTurns();
  readonly #receiveSliceMs: number;
  readonly #admin: ServiceBusAdministrationClient;
  readonly #publisher: Publisher;
  readonly #views: OperatorViews;
  readonly #sessions = new Set<ServiceBusSessionHandle>();
  /** Paused inputs, thresholds and check results, in the namespace's `nimbus.input-control` queue. */
  readonly control: ServiceBusInputControl;
  #topology: Promise<Topology> | null = null;
  /** Aborted when the stop step begins: every waiting accept and receive of this transport ends at once. */
  readonly #closing = new AbortController();
  protected readonly lifecycle = new LifecycleRunner(
    { stop: ({ signal }) => this.#release(signal) },
    {
      name: 'the Service Bus transport',
      closedError: (m) => new TransportError(TransportErrorCode.Closed, m),
    },
  );

  constructor(options: ServiceBusTransportOptions) {
    super();
    const lockDurationMs = options.lockDurationMs ?? DEFAULT_OPTIONS.lockDurationMs;
    const maxDeliveryCount = options.maxDeliveryCount ?? DEFAULT_OPTIONS.maxDeliveryCount;
    if (!Number.isInteger(lockDurationMs) || lockDurationMs < 100) {
      throw new NimBusError(
        NimBusErrorCode.InvalidOption,
        `ServiceBusTransport: lockDurationMs must be an integer ≥ 100, got ${lockDurationMs}`,
      );
    }
    this.capabilities = {
      atomicSettleAndPublish: false,
      nativeScheduling: true,
      settleMany: false,
      maxBatchBytes: MAX_BATCH_BYTES,
      maxDeliveryCount,
      lockDurationMs,
    };
    const { client, pollClient, admin } = clients(
      options,
      options.operationTimeoutMs ?? DEFAULT_OPTIONS.operationTimeoutMs,
      options.acceptPollMs ?? DEFAULT_OPTIONS.acceptPollMs,
    );
    this.#client = client;
    this.#pollClient = pollClient;
    this.#acceptClients = { client, pollClient };
    disableNagle(client);
    disableNagle(pollClient);
    this.#receiveSliceMs = options.receiveSliceMs ?? DEFAULT_OPTIONS.receiveSliceMs;
    this.#admin = admin;
    this.#publisher = new Publisher(
      client,
      () => this.#currentTopology(),
      () => this.#refreshTopology(),
    );
    this.#views = new OperatorViews(client, admin, this.#publisher);
    this.control = new ServiceBusInputControl(client, admin, (operation) => this.#assertOpen(operation));
  }

  async applyTopology(topology: Topology): Promise<TopologyChanges> {
    this.#assertOpen('applyTopology');
    const changes = await applyTopology(this.#admin, topology, this.capabilities);
    await this.control.ensureQueue();
    this.#topology = Promise.resolve(topology);
    return changes;
  }

  async getTopology(): Promise<Topology> {
    this.#assertOpen('getTopology');
    return this.#refreshTopology();
  }

  async publish(requests: readonly PublishRequest[]): Promise<void> {
    this.#assertOpen('publish');
    assertPublishBatchSize(requests, this.capabilities.maxBatchBytes);
    await this.#publisher.send(await this.#publisher.plan(requests));
  }

  async schedule(source: string, message: TransportMessage, at: Date): Promise<ScheduleHandle> {
    this.#assertOpen('schedule');
    if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
      throw new TransportError(TransportErrorCode.InvalidArgument, 'schedule: at must be a valid Date');
    }
    const planned = await this.#publisher.plan([{ source, messages: [message] }]);
    const handles: [string, string][] = [];
    for (const { topic, message: copy } of planned) {
      const [sequence] = await guarded('schedule', () =>
        this.#publisher.sender(topic).scheduleMessages(copy, at),
      );
      handles.push([topic, sequence!.toString()]);
    }
    return { id: JSON.stringify(handles), source };
  }

  async cancelScheduled(handle: ScheduleHandle): Promise<void> {
    this.#assertOpen('cancelScheduled');
    let handles: [string, string][];
    try {
      handles = JSON.parse(handle.id) as [string, string][];
      if (!Array.isArray(handles)) throw new NimBusError(NimBusErrorCode.InvalidArgument, 'not a list');
    } catch {
      throw new TransportError(
        TransportErrorCode.MessageNotFound,
        `cancelScheduled: unknown schedule handle '${handle.id}'`,
      );
    }
    for (const [topic, sequence] of handles) {
      await guarded('cancel scheduled', () =>
        this.#publisher.sender(topic).cancelScheduledMessages(Long.fromString(sequence)),
      );
    }
  }

  async acceptSession(input: string, options: AcceptOptions): Promise<SessionHandle | null> {
    this.#assertOpen('acceptSession');
    if (!(options.waitMs >= 0))
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        `acceptSession: waitMs must be ≥ 0, got ${options.waitMs}`,
      );
    await this.#assertInput(input);
    const closing = this.#closing.signal;
    const signal = options.signal ? AbortSignal.any([options.signal, closing]) : closing;
    const accepted = await unlessClosing(
      options.sessionId
        ? acceptNamed(this.#client, input, options.sessionId, options.waitMs, signal)
        : acceptNext(this.#acceptClients, this.#nextSessionTurns, input, options.waitMs, signal),
      closing,
      () => this.#assertOpen('acceptSession') as never,
      (late) => void late?.receiver.close().catch(() => undefined), // the clients close under it anyway
    );
    if (!accepted) return null;
    return this.#track(
      new ServiceBusSessionHandle(
        input,
        accepted.receiver,
        this.#client,
        this.#publisher,
        this.capabilities.lockDurationMs,
        this.#receiveSliceMs,
        this.#life,
        accepted.first,
      ),
    );
  }

  /**
   * A handle over a session lease someone else holds (the Azure Functions host): it settles through `held`,
   * hands out `messages` (what the host delivered), parks on the input's parked line with this transport's
   * client, and keeps the engine's state on the parked line's session (a host binding may not read session
   * state). Releasing it gives up the parked line only; the lease stays with its holder.
   */
  adoptSession(input: string, held: HeldSession, messages: ServiceBusReceivedMessage[]): SessionHandle {
    this.#assertOpen('adoptSession');
    return this.#track(
      new ServiceBusSessionHandle(
        input,
        held,
        this.#client,
        this.#publisher,
        this.capabilities.lockDurationMs,
        this.#receiveSliceMs,
        this.#life,
        messages,
        'parked',
      ),
    );
  }

  #track(handle: ServiceBusSessionHandle): SessionHandle {
    this.#sessions.add(handle);
    const release = handle.release.bind(handle);
    handle.release = async () => {
      this.#sessions.delete(handle);
      await release();
    };
    return handle;
  }

  async peek(
    input: string,
    options: { readonly max?: number; readonly sessionId?: string } = {},
  ): Promise<PeekedMessage[]> {
    this.#assertOpen('peek');
    await this.#assertInput(input);
    return this.#views.peek(input, options.max ?? 100, options.sessionId);
  }

  async counts(input: string): Promise<TransportCounts> {
    this.#assertOpen('counts');
    await this.#assertInput(input);
    return this.#views.counts(input);
  }

  async peekDeadLetters(input: string, max = 100): Promise<DeadLetteredMessage[]> {
    this.#assertOpen('peekDeadLetters');
    await this.#assertInput(input);
    return this.#views.peekDeadLetters(input, max);
  }

  async requeueDeadLetters(input: string, ids?: readonly string[]): Promise<number> {
    this.#assertOpen('requeueDeadLetters');
    await this.#assertInput(input);
    return this.#views.requeue(input, ids);
  }

  async purge(input: string, target: PurgeTarget): Promise<number> {
    this.#assertOpen('purge');
    await this.#assertInput(input);
    return this.#views.purge(input, target);
  }

  /** What a session handle asks of the transport's life (its closing signal and the closed guard). */
  readonly #life: TransportLife = {
    closing: this.#closing.signal,
    assertUsable: (operation) => this.#assertOpen(operation),
  };

  async #release(deadline: AbortSignal): Promise<void> {
    this.#closing.abort();
    // `abort()` (the deadline aborted from the start) does not release held sessions one by one: closing the
    // clients gives them all up.
    if (!deadline.aborted) {
      const releases = Promise.all([...this.#sessions].map((s) => s.release()));
      await Promise.race([releases, whenAborted(deadline)]);
    }
    await this.#publisher.close();
    await this.#views.close();
    await this.control.close();
    await this.#client.close();
    await this.#pollClient.close();
  }

  #currentTopology(): Promise<Topology> {
    this.#topology ??= readTopology(this.#admin);
    return this.#topology;
  }

  #refreshTopology(): Promise<Topology> {
    this.#topology = readTopology(this.#admin);
    this.#topology.catch(() => {
      this.#topology = null;
    });
    return this.#topology;
  }

  async #assertInput(input: string): Promise<void> {
    if (knownInputs(await this.#currentTopology()).has(input)) return;
    if (knownInputs(await this.#refreshTopology()).has(input)) return;
    throw new TransportError(TransportErrorCode.EntityNotFound, `input '${input}' does not exist`);
  }

  #assertOpen(operation: string): void {
    this.lifecycle.assertUsable(operation);
  }
}

export function createServiceBusTransport(options: ServiceBusTransportOptions): ServiceBusTransport {
  return new ServiceBusTransport(options);
}
