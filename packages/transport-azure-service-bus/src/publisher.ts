import type { ServiceBusClient, ServiceBusMessage, ServiceBusSender } from '@azure/service-bus';
import {
  Header,
  type PublishRequest,
  RESOLVER_INPUT,
  type Topology,
  TransportError,
  TransportErrorCode,
  type TransportMessage,
} from '@nimbus/core';
import { assertPublishSource, assertTransportMessage, routeMessage } from '@nimbus/core/transport-spi';
import { guarded } from './errors.js';
import { toServiceBus } from './message-mapping.js';
import { INPUT_PROPERTY, inputsOf, ROUTE_EVENT_PROPERTY, ROUTE_SOURCE_PROPERTY, topicOf } from './names.js';

/** One message bound for one topic. */
export interface Outgoing {
  readonly topic: string;
  readonly message: ServiceBusMessage;
}

/** Routes publishes client-side (design D3's one rule) and sends each copy to its input's topic, paged in batches. */
export class Publisher {
  readonly #senders = new Map<string, ServiceBusSender>();

  constructor(
    readonly client: ServiceBusClient,
    /** The applied topology; refreshed once when a delivery names an input it does not know. */
    readonly topology: () => Promise<Topology>,
    readonly refreshTopology: () => Promise<Topology>,
  ) {}

  sender(topic: string): ServiceBusSender {
    let sender = this.#senders.get(topic);
    if (!sender) {
      sender = this.client.createSender(topic);
      this.#senders.set(topic, sender);
    }
    return sender;
  }

  /** The copies `requests` make, after checking every message and that every input exists (nothing is sent otherwise). */
  async plan(requests: readonly PublishRequest[]): Promise<Outgoing[]> {
    for (const request of requests) {
      assertPublishSource(request.source);
      for (const message of request.messages) assertTransportMessage(message);
    }
    let topology = await this.topology();
    const outgoing = (t: Topology) =>
      requests.flatMap((request) =>
        request.messages.flatMap((message) => this.#copies(t, request.source, message, request.enqueueAt)),
      );
    let planned = outgoing(topology);
    if (planned.some((p) => !knownInputs(topology).has(p.input))) {
      topology = await this.refreshTopology();
      planned = outgoing(topology);
    }
    const inputs = knownInputs(topology);
    const missing = planned.find((p) => !inputs.has(p.input));
    if (missing) {
      throw new TransportError(
        TransportErrorCode.EntityNotFound,
        `publish: input '${missing.input}' does not exist (apply the topology first); nothing was sent`,
      );
    }
    return planned.map(({ topic, message }) => ({ topic, message }));
  }

  /** Sends in order, one topic at a time, each topic's messages paged to the sender's batch size. */
  async send(outgoing: readonly Outgoing[]): Promise<void> {
    const byTopic = new Map<string, ServiceBusMessage[]>();
    for (const { topic, message } of outgoing) {
      const list = byTopic.get(topic) ?? [];
      list.push(message);
      byTopic.set(topic, list);
    }
    for (const [topic, messages] of byTopic) await this.#sendPaged(topic, messages);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#senders.values()].map((s) => s.close()));
    this.#senders.clear();
  }

  async #sendPaged(topic: string, messages: ServiceBusMessage[]): Promise<void> {
    const sender = this.sender(topic);
    await guarded(`publish to topic '${topic}'`, async () => {
      let batch = await sender.createMessageBatch();
      for (const message of messages) {
        if (batch.tryAddMessage(message)) continue;
        if (batch.count === 0) {
          throw new TransportError(
            TransportErrorCode.MessageTooLarge,
            `publish: message ${String(message.messageId)} exceeds the batch size of ${batch.maxSizeInBytes} bytes`,
          );
        }
        await sender.sendMessages(batch);
        batch = await sender.createMessageBatch();
        if (!batch.tryAddMessage(message)) {
          throw new TransportError(
            TransportErrorCode.MessageTooLarge,
            `publish: message ${String(message.messageId)} exceeds the batch size of ${batch.maxSizeInBytes} bytes`,
          );
        }
      }
      if (batch.count > 0) await sender.sendMessages(batch);
    });
  }

  #copies(topology: Topology, source: string, message: TransportMessage, enqueueAt: Date | undefined) {
    return routeMessage(topology, source, message).map((delivery) => {
      const routed = delivery.message.headers[Header.From] === source && !message.headers[Header.From];
      const properties: Record<string, string> = { [INPUT_PROPERTY]: delivery.input };
      if (routed && delivery.input !== RESOLVER_INPUT) {
        properties[ROUTE_SOURCE_PROPERTY] = source;
        properties[ROUTE_EVENT_PROPERTY] = message.headers[Header.EventTypeId] ?? '';
      }
      const serviceBus = toServiceBus(delivery.message, properties);
      if (enqueueAt) serviceBus.scheduledEnqueueTimeUtc = enqueueAt;
      return { input: delivery.input, topic: topicOf(delivery.input), message: serviceBus };
    });
  }
}

export function knownInputs(topology: Topology): Set<string> {
  return new Set([RESOLVER_INPUT, ...topology.endpoints.flatMap(inputsOf)]);
}
