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
import type { ResolverStore } from './resolver-store.js';

/**
 * The store with every method call in a `nimbus.store {method}` span (a child of the Resolver write that
 * makes it), timed, and counted when it fails. Anything that is not a function is passed through.
 */
export function tracedStore<S extends ResolverStore>(store: S, clock: Pick<Clock, 'now'>): S {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      let traced = wrapped.get(property);
      if (!traced) {
        const attributes = { [TelemetryAttribute.StoreOperation]: property };
        traced = async (...args: unknown[]) => {
          const started = clock.now();
          let outcome: string = Outcome.Failed;
          try {
            const result = await withSpan(
              SpanName.storeCall(property),
              attributes,
              () => value.apply(target, args),
              { scope: TelemetryScope.Store },
            );
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
        wrapped.set(property, traced);
      }
      return traced;
    },
  });
}
