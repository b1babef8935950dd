// The examples quoted in docs/telemetry.md (and the circuit breaker section of docs/reliability.md).
import { expect, it } from 'vitest';
import {
  CircuitState,
  countMetric,
  EndpointCircuitBreaker,
  extractTraceContext,
  gateTransport,
  Header,
  ManualClock,
  MetricName,
  SpanName,
  silentLogger,
  TelemetryAttribute,
  TelemetryScope,
  type Transport,
  type TransportMessage,
  withCircuitBreaker,
  withProcessSpan,
  withPublishSpan,
  withSpan,
} from '../../src/index.js';
import { installInMemoryTracing } from './otel-fixture.js';

const tracing = installInMemoryTracing();

it('docs: spans around publish, process and a Resolver write', async () => {
  const outgoing: TransportMessage = {
    messageId: 'm-1',
    sessionId: 'o-1',
    correlationId: null,
    headers: { [Header.To]: 'Erp', [Header.EventTypeId]: 'OrderPlaced' },
    body: '{}',
  };
  // --- example: telemetry ---
  // Publisher: a producer span; the stamped copy carries traceparent/tracestate.
  const sent = await withPublishSpan(outgoing, 'nimbus.inmemory', async (stamped) => {
    // await transport.publish([{ source: 'Crm', messages: [stamped] }]);
    countMetric(TelemetryScope.Publisher, MetricName.MessagePublished);
    return stamped;
  });

  // Consumer: a consumer span parented to the message's traceparent.
  await withProcessSpan(sent, 'nimbus.inmemory', async () => {
    // Anything inside (handler, store calls, outbox writes) joins the same trace.
    await withSpan(
      SpanName.storeCall('upsertMessage'),
      { [TelemetryAttribute.StoreOperation]: 'upsertMessage' },
      async () => {},
      {
        scope: TelemetryScope.Store,
      },
    );
  });

  // Resolver: continue the trace of the response it projects.
  await withSpan(SpanName.ResolverWrite, {}, async () => {}, {
    scope: TelemetryScope.Resolver,
    parent: extractTraceContext(sent.headers),
  });
  // --- end example ---
  const spans = tracing.spans();
  expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
  expect(spans.map((s) => s.name)).toEqual([
    'publish Erp',
    'nimbus.store upsertMessage',
    'process Erp',
    'nimbus.resolver.write',
  ]);
});

it('docs: circuit breaker around a receive loop', async () => {
  const clock = new ManualClock();
  const transport = {} as Transport;
  const handler = { handleMessage: async () => {} };
  class DataverseThrottledError extends Error {}
  class DataverseRejectedError extends Error {}
  // --- example: circuit breaker ---
  const breaker = new EndpointCircuitBreaker('D365SalesEndpoint', {
    minimumThroughput: 10,
    failurePercentageThreshold: 50,
    samplingWindowMs: 60_000,
    breakDurationMs: 30_000,
    halfOpenProbeCount: 1,
    // Throttling is paced by retries, a rejection is a data problem: neither is an outage.
    excludedErrors: [DataverseThrottledError, DataverseRejectedError],
    clock,
    logger: silentLogger,
  });
  breaker.onStateChange((change) => console.info(`breaker ${change.from} -> ${change.to}`));

  // Give the processor the gated transport (receiving pauses while open) and the recording handler.
  const processorOptions = {
    transport: gateTransport(transport, breaker),
    input: 'D365SalesEndpoint',
    handler: withCircuitBreaker(handler, breaker),
    prefetchCount: 0,
  };
  // --- end example ---
  expect(processorOptions.input).toBe('D365SalesEndpoint');
  expect(breaker.state).toBe(CircuitState.Closed);
});
