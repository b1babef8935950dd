import {
  type Clock,
  countMetric,
  MetricName,
  Outcome,
  SpanName,
  TelemetryAttribute,
  TelemetryScope,
  tracedCall,
} from '@nimbus/core';
import type { StoreCall, StoreDecorator } from './decorate-store.js';

/**
 * The tracing link: every call in a `nimbus.store {method}` span (a child of whatever span makes it),
 * timed, and counted when it fails (`tracedCall`).
 */
export function traceStoreCalls(clock: Pick<Clock, 'now'>): StoreDecorator {
  return (call, proceed) => {
    const attributes = { [TelemetryAttribute.StoreOperation]: call.method };
    return tracedCall(
      {
        scope: TelemetryScope.Store,
        span: SpanName.storeCall(call.method),
        attributes,
        duration: MetricName.StoreOperationDuration,
        clock,
        onSettled: (outcome) => {
          if (outcome === Outcome.Failed)
            countMetric(TelemetryScope.Store, MetricName.StoreOperationFailed, attributes);
        },
      },
      proceed,
    );
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
