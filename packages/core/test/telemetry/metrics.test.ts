import { type Attributes, type Meter, type MeterProvider, metrics } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { countMetric, ManualClock, MetricName, measureDuration, TelemetryScope } from '../../src/index.js';

/** A recording meter provider: the OpenTelemetry SDK's metrics package is not a dependency of ours. */
function recordingProvider() {
  const recorded: { scope: string; name: string; kind: string; value: number; attributes: Attributes }[] = [];
  const provider: MeterProvider = {
    getMeter(scope: string) {
      const instrument = (kind: string, name: string) => ({
        add: (value: number, attributes: Attributes = {}) =>
          recorded.push({ scope, name, kind, value, attributes }),
        record: (value: number, attributes: Attributes = {}) =>
          recorded.push({ scope, name, kind, value, attributes }),
      });
      return {
        createCounter: (name: string) => instrument('counter', name),
        createHistogram: (name: string) => instrument('histogram', name),
      } as unknown as Meter;
    },
  };
  return { provider, recorded };
}

describe('NimBus metrics', () => {
  const { provider, recorded } = recordingProvider();
  metrics.setGlobalMeterProvider(provider);

  it('counts on the named scope and instrument', () => {
    countMetric(TelemetryScope.Outbox, MetricName.OutboxEnqueued, { 'nimbus.endpoint': 'Crm' }, 3);
    expect(recorded.at(-1)).toEqual({
      scope: 'nimbus.outbox',
      name: 'nimbus.outbox.enqueued',
      kind: 'counter',
      value: 3,
      attributes: { 'nimbus.endpoint': 'Crm' },
    });
  });

  it('measures durations on the injected clock with the outcome, also when the work fails', async () => {
    const clock = new ManualClock();
    await measureDuration(TelemetryScope.Publisher, MetricName.MessagePublishDuration, {}, clock, () =>
      clock.advance(25),
    );
    expect(recorded.at(-1)).toMatchObject({
      kind: 'histogram',
      value: 0.025,
      attributes: { 'nimbus.outcome': 'completed' },
    });
    await expect(
      measureDuration(TelemetryScope.Publisher, MetricName.MessagePublishDuration, {}, clock, () => {
        clock.advance(5);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(recorded.at(-1)).toMatchObject({ value: 0.005, attributes: { 'nimbus.outcome': 'failed' } });
  });
});
