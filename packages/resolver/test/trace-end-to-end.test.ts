// One trace from publish to the Resolver write, over the memory transport and the memory message store.
import {
  defineEndpoint,
  defineEvent,
  definePlatform,
  MessageType,
  silentLogger,
  TelemetryAttribute,
  topologyFromPlatform,
} from '@nimbus/core';
import { createMemoryMessageStore } from '@nimbus/message-store';
import { createResolver } from '@nimbus/resolver';
import { createEndpointHost, createSubscriber, Publisher } from '@nimbus/sdk';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
);
afterAll(() => {
  trace.disable();
  context.disable();
});

const OrderPlaced = defineEvent('OrderPlaced', {
  schema: z.object({ orderId: z.string() }),
  sessionKey: 'orderId',
});
const platform = definePlatform([
  defineEndpoint('Crm', { produces: [OrderPlaced] }),
  defineEndpoint('Erp', { consumes: [OrderPlaced] }),
]);

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan | undefined) => span?.spanContext().spanId;

describe('tracing end to end', () => {
  it('publish → process → Resolver write is one trace with the right parent chain', async () => {
    const transport = createMemoryTransport();
    await transport.applyTopology(topologyFromPlatform(platform));
    const processing = { maxConcurrentSessions: 2, acceptWaitMs: 20, sessionIdleTimeoutMs: 20 };
    const host = createEndpointHost({
      platform,
      endpoint: 'Erp',
      transport,
      subscriber: createSubscriber().on(OrderPlaced, () => undefined),
      logger: silentLogger,
      processor: processing,
    });
    const resolver = createResolver({
      transport,
      store: createMemoryMessageStore({ env: {} }),
      logger: silentLogger,
      options: processing,
    });
    await host.start();
    await resolver.start();
    try {
      await new Publisher({ transport, endpoint: 'Crm', platform }).publish(OrderPlaced, { orderId: 'o-1' });
      const resolverWrite = (type: MessageType) =>
        exporter
          .getFinishedSpans()
          .find(
            (s) =>
              s.name === 'nimbus.resolver.write' && s.attributes[TelemetryAttribute.MessageType] === type,
          );
      await until(() => resolverWrite(MessageType.ResolutionResponse) !== undefined);
    } finally {
      await host.stop();
      await resolver.stop();
      await transport.close();
    }

    const spans = exporter.getFinishedSpans();
    const publish = spans.find((s) => s.name === 'publish OrderPlaced');
    const process = spans.find(
      (s) => s.kind === SpanKind.CONSUMER && s.attributes['nimbus.endpoint'] === 'Erp',
    );
    const settle = spans.find((s) => s.name === 'settle complete' && parentOf(s) === idOf(process));
    const write = spans.find(
      (s) =>
        s.name === 'nimbus.resolver.write' &&
        s.attributes[TelemetryAttribute.MessageType] === MessageType.ResolutionResponse,
    );
    const requestCopy = spans.find(
      (s) =>
        s.name === 'nimbus.resolver.write' &&
        s.attributes[TelemetryAttribute.MessageType] === MessageType.EventRequest,
    );
    expect(publish?.kind).toBe(SpanKind.PRODUCER);
    expect(publish?.instrumentationScope.name).toBe('nimbus.publisher');
    expect(process?.name).toMatch(/^process /);
    expect(process?.attributes[TelemetryAttribute.HasParentTrace]).toBe(true);
    expect(process?.attributes[TelemetryAttribute.Outcome]).toBe('completed');

    const traceId = publish!.spanContext().traceId;
    for (const span of [process, settle, write, requestCopy])
      expect(span?.spanContext().traceId).toBe(traceId);
    expect(parentOf(publish)).toBeUndefined();
    expect(parentOf(process)).toBe(idOf(publish));
    expect(parentOf(settle)).toBe(idOf(process));
    // The Resolver continues the trace of the response it projects: the engine's process span.
    expect(parentOf(write)).toBe(idOf(process));
    // The routed copy of the request carries the publisher's context.
    expect(parentOf(requestCopy)).toBe(idOf(publish));
    expect(write?.instrumentationScope.name).toBe('nimbus.resolver');
    // Store calls made by that write are its children.
    const storeCalls = spans.filter((s) => parentOf(s) === idOf(write)).map((s) => s.name);
    expect(storeCalls).toContain('nimbus.store writeStatus');
    expect(storeCalls.every((name) => name.startsWith('nimbus.store '))).toBe(true);
  });
});
