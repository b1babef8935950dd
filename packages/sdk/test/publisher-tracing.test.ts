import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { beforeEach, describe, expect, it } from 'vitest';
import { Publisher } from '../src/index.js';
import { FakeTransport } from './fake-transport.js';
import { OrderPlaced, order, platform } from './fixtures.js';

const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
);
beforeEach(() => exporter.reset());

describe('Publisher tracing', () => {
  it('sends every message stamped with the producer span of its transport call', async () => {
    const transport = new FakeTransport();
    const publisher = new Publisher({ transport, endpoint: 'Sales', platform });
    await publisher.publish(OrderPlaced, order(1));
    await publisher.publishMany([
      { type: OrderPlaced, payload: order(2) },
      { type: OrderPlaced, payload: order(3) },
    ]);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => [s.name, s.kind, s.instrumentationScope.name])).toEqual([
      ['publish OrderPlaced', SpanKind.PRODUCER, 'nimbus.publisher'],
      ['publish OrderPlaced', SpanKind.PRODUCER, 'nimbus.publisher'],
    ]);
    const [single, batch] = spans;
    expect(single?.attributes).toMatchObject({
      'messaging.system': 'fake',
      'messaging.operation.type': 'publish',
      'nimbus.event_type': 'OrderPlaced',
      'nimbus.session.key': 'c-1',
    });
    expect(batch?.attributes['messaging.batch.message_count']).toBe(2);
    const parents = transport.sent.map((m) => m.traceParent?.split('-')[2]);
    expect(parents).toEqual([
      single?.spanContext().spanId,
      batch?.spanContext().spanId,
      batch?.spanContext().spanId,
    ]);
  });

  it('a publish inside an active span is its child, in the same trace', async () => {
    const transport = new FakeTransport();
    const publisher = new Publisher({ transport, endpoint: 'Sales', platform });
    const outer = trace.getTracer('test').startSpan('handler');
    await context.with(trace.setSpan(context.active(), outer), () =>
      publisher.publish(OrderPlaced, order(1)),
    );
    outer.end();
    const publish = exporter.getFinishedSpans().find((s) => s.name === 'publish OrderPlaced');
    expect(publish?.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(transport.sent[0]?.traceParent).toContain(outer.spanContext().traceId);
  });

  it('a failed send marks the span failed and rethrows', async () => {
    const transport = new FakeTransport();
    transport.publish = async () => {
      throw new Error('broker down');
    };
    const publisher = new Publisher({ transport, endpoint: 'Sales', platform });
    await expect(publisher.publish(OrderPlaced, order(1))).rejects.toThrow('broker down');
    const [span] = exporter.getFinishedSpans();
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes['error.type']).toBe('Error');
  });
});
