import {
  type Clock,
  type Endpoint,
  type FailureClassifier,
  type LifecycleObserver,
  type Logger,
  MessageEngine,
  type PipelineBehaviour,
  type Platform,
  type RetryPolicyProvider,
  SessionProcessor,
  type SessionProcessorOptions,
  type Transport,
} from '@nimbus/core';
import { HandoffClient } from './handoff-client.js';
import { Publisher } from './publisher.js';
import type { Subscriber } from './subscriber.js';

export interface EndpointHostOptions {
  readonly platform: Platform;
  /** The endpoint to run: its id or its definition; it must be part of the platform. */
  readonly endpoint: string | Endpoint;
  readonly transport: Transport;
  readonly subscriber: Subscriber;
  readonly retryPolicies?: RetryPolicyProvider | null;
  readonly failureClassifier?: FailureClassifier;
  readonly behaviours?: readonly PipelineBehaviour[];
  readonly observers?: readonly LifecycleObserver[];
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Session processor tuning (concurrency, idle timeout, lock renewal, prefetch). */
  readonly processor?: Omit<SessionProcessorOptions, 'transport' | 'input' | 'handler' | 'clock' | 'logger'>;
}

/**
 * A receiving endpoint: the session processor over the endpoint's input, feeding the workflow engine,
 * which runs the subscriber's handlers. Also gives a publisher and a handoff client bound to the endpoint.
 */
export class EndpointHost {
  readonly endpoint: Endpoint;
  readonly engine: MessageEngine;
  readonly publisher: Publisher;
  readonly handoff: HandoffClient;
  readonly processor: SessionProcessor;

  constructor(options: EndpointHostOptions) {
    const endpoint =
      typeof options.endpoint === 'string'
        ? options.platform.getEndpoint(options.endpoint)
        : options.endpoint;
    if (!endpoint || options.platform.getEndpoint(endpoint.id) !== endpoint) {
      throw new TypeError(
        `Endpoint '${String(typeof options.endpoint === 'string' ? options.endpoint : options.endpoint?.id)}' is not part of the platform.`,
      );
    }
    for (const id of options.subscriber.eventTypeIds) {
      if (!endpoint.consumes.some((type) => type.id === id)) {
        throw new TypeError(
          `Endpoint '${endpoint.id}' has a handler for '${id}' but does not declare that it consumes it; no message of that type would arrive.`,
        );
      }
    }
    this.endpoint = endpoint;
    this.publisher = new Publisher({ transport: options.transport, endpoint, clock: options.clock });
    options.subscriber.usePublisher(this.publisher);
    this.handoff = new HandoffClient(options.transport, endpoint.id);
    this.engine = new MessageEngine({
      endpointId: endpoint.id,
      handler: options.subscriber.asContextHandler(),
      clock: options.clock,
      logger: options.logger,
      retryPolicies: options.retryPolicies,
      failureClassifier: options.failureClassifier,
      behaviours: options.behaviours,
      observers: options.observers,
    });
    this.processor = new SessionProcessor({
      ...options.processor,
      transport: options.transport,
      input: endpoint.id,
      handler: this.engine,
      clock: options.clock,
      logger: options.logger,
    });
  }

  start(): Promise<void> {
    return this.processor.start();
  }

  /** Stops taking sessions and waits for the ones in hand to finish their current message. */
  stop(): Promise<void> {
    return this.processor.stop();
  }
}

export function createEndpointHost(options: EndpointHostOptions): EndpointHost {
  return new EndpointHost(options);
}
