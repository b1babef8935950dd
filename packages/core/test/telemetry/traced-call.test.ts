import { type Attributes, type Meter, metrics } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { ManualClock, MetricName, SpanName, TelemetryScope, tracedCall } from '../../src/index.js';
import { installInMemoryTracing } from './otel-fixture.js';

const recorded: { name: string; value: number; attributes: Attributes }[] = [];
metrics.setGlobalMeterProvider({
  getMeter: () =>
    ({
      createCounter: (name: string) => ({
        add: (value: number, attributes: Attributes = {}) => recorded.push({ name, value, attributes }),
      }),
      createHistogram: (name: string) => ({
        record: (value: number, attributes: Attributes = {}) => recorded.push({ name, value, attributes }),
      }),
    }) as unknown as Meter,
});

describe('tracedCall', () => {
  const otel = installInMemoryTracing();

  it('runs the call in a span with every attribute; the duration carries the metric attributes and the outcome only', async () => {
    const clock = new ManualClock();
    const settled: string[] = [];
    const result = await tracedCall(
      {
        scope: TelemetryScope.Store,
        span: SpanName.storeCall('writeStatus'),
        attributes: { 'nimbus.store.operation': 'writeStatus' },
        spanAttributes: { 'messaging.message.id': 'm-1' },
        duration: MetricName.StoreOperationDuration,
        clock,
        onSettled: (outcome) => settled.push(outcome),
      },
      async () => {
        clock.advance(40);
        return 'written';
      },
    );
    expect(result).toBe('written');
    expect(settled).toEqual(['completed']);
    const span = otel.spans().at(-1);
    expect(span?.name).toBe('nimbus.store writeStatus');
    expect(span?.attributes).toEqual({
      'nimbus.store.operation': 'writeStatus',
      'messaging.message.id': 'm-1',
    });
    expect(recorded.at(-1)).toEqual({
      name: MetricName.StoreOperationDuration,
      value: 0.04,
      attributes: { 'nimbus.store.operation': 'writeStatus', 'nimbus.outcome': 'completed' },
    });
  });

  it('rethrows a failure unchanged, marks the span and records the failed outcome', async () => {
    const clock = new ManualClock();
    const failure = new Error('database gone');
    const settled: string[] = [];
    await expect(
      tracedCall(
        {
          scope: TelemetryScope.Resolver,
          span: SpanName.ResolverWrite,
          attributes: { 'nimbus.endpoint': 'Billing' },
          duration: MetricName.ResolverWriteDuration,
          clock,
          onSettled: (outcome) => settled.push(outcome),
        },
        async () => {
          throw failure;
        },
      ),
    ).rejects.toBe(failure);
    expect(settled).toEqual(['failed']);
    expect(otel.spans().at(-1)?.status.code).toBe(2);
    expect(recorded.at(-1)?.attributes).toEqual({ 'nimbus.endpoint': 'Billing', 'nimbus.outcome': 'failed' });
  });
});
