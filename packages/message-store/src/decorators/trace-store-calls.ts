import {
  type Clock,
  countMetric,
  MetricName,
  Outcome,
  recordDuration,
  SpanName,
  TelemetryAttribute,
  TelemetryScope,
  withSpan,
} from '@nimbus/core';
import type { StoreCall, StoreDecorator } from './decorate-store.js';

/**
 * The tracing link: every call in a `nimbus.store {method}` span (a child of whatever span makes it),
 * timed, and counted when it fails.
 */
export function traceStoreCalls(clock: Pick<Clock, 'now'>): StoreDecorator {
  return async (call, proceed) => {
    const attributes = { [TelemetryAttribute.StoreOperation]: call.method };
    const started = clock.now();
    let outcome: string = Outcome.Failed;
    try {
      const result = await withSpan(SpanName.storeCall(call.method), attributes, proceed, {
        scope: TelemetryScope.Store,
      });
      outcome = Outcome.Completed;
      return result;
    } catch (error) {
      countMetric(TelemetryScope.Store, MetricName.StoreOperationFailed, attributes);
      throw error;
    } finally {
      recordDuration(TelemetryScope.Store, MetricName.StoreOperationDuration, clock.now() - started, {
        ...attributes,
        [TelemetryAttribute.Outcome]: outcome,
      });
    }
  };
}

/** The error-translation link: `translate` maps a provider's error (of `call`) to the store vocabulary. */
export function translateStoreErrors(
  translate: (error: unknown, call: StoreCall) => unknown,
): StoreDecorator {
  return async (call, proceed) => {
    try {
      return await proceed();
    } catch (error) {
      throw translate(error, call);
    }
  };
}
