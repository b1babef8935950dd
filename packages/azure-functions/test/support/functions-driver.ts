import type { app as functionsApp } from '@azure/functions';
import { ServiceBusClient } from '@azure/service-bus';
import type { InputWorker, RecordingTransport } from '@nimbus/testing';
import type { ServiceBusTransport } from '@nimbus/transport-azure-service-bus';
import { registerSessionTrigger, subscriptionOf } from '../../src/index.js';
import { deliverSession } from './functions-host.js';

/**
 * The host's delivery loop for the engine end-to-end suite: per input, the first time it is drained, a session
 * trigger is registered through the real `@azure/functions` app with the bus's engine as its handler; then
 * every session with messages is accepted with the unmodified `@azure/service-bus` client and its messages are
 * invoked one by one through the worker model.
 */
export class FunctionsDriver {
  readonly #client: ServiceBusClient;
  readonly #registered = new WeakMap<InputWorker, string>();
  #count = 0;

  constructor(
    readonly app: typeof functionsApp,
    connectionString: string,
    readonly transport: ServiceBusTransport,
    readonly waitMs: number,
  ) {
    this.#client = new ServiceBusClient(connectionString, {
      retryOptions: { maxRetries: 0, timeoutInMs: Math.max(500, waitMs * 10) },
    });
  }

  #functionFor(input: string, worker: InputWorker, recording: RecordingTransport): string {
    const known = this.#registered.get(worker);
    if (known) return known;
    const name = `nimbus-${input}-${++this.#count}`;
    registerSessionTrigger(this.app, {
      name,
      input,
      connection: 'NimbusServiceBus',
      sessions: {
        adoptSession: (at, held, messages) =>
          recording.track(this.transport.adoptSession(at, held, messages)),
      },
      handler: worker,
    });
    this.#registered.set(worker, name);
    return name;
  }

  drainInput = (input: string, worker: InputWorker, recording: RecordingTransport): Promise<number> =>
    this.deliver(this.#functionFor(input, worker, recording), input, recording);

  /** Invokes function `name` for every session of `input` that has messages; resolves with the invocations. */
  async deliver(name: string, input: string, recording: Pick<RecordingTransport, 'counts'>): Promise<number> {
    const { topicName, subscriptionName } = subscriptionOf(input);
    let handled = 0;
    while ((await recording.counts(input)).active > 0) {
      let receiver: Awaited<ReturnType<ServiceBusClient['acceptNextSession']>>;
      try {
        // As the host does (maxAutoLockRenewalDuration, 5 min by default), the session lock is renewed while held.
        receiver = await this.#client.acceptNextSession(topicName, subscriptionName, {
          skipParsingBodyAsJson: true,
        });
      } catch {
        return handled;
      }
      const ran = await deliverSession(name, receiver, this.waitMs);
      if (ran === 0) return handled;
      handled += ran;
    }
    return handled;
  }

  close(): Promise<void> {
    return this.#client.close();
  }
}
