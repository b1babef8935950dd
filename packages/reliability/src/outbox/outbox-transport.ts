import {
  countMetric,
  injectTraceContext,
  MetricName,
  type PublishRequest,
  type ScheduleHandle,
  SpanName,
  TelemetryAttribute,
  TelemetryScope,
  type Transport,
  TransportError,
  TransportErrorCode,
  type TransportMessage,
  withSpan,
} from '@nimbus/core';
import type { OutboxEntry, OutboxStore, OutboxWriteOptions } from './outbox-store.js';

const OUTBOX_DECORATED = Symbol.for('nimbus.outbox.decorated');

/** True for a transport made by `createOutboxTransport`: it only writes to the outbox and cannot dispatch. */
export function isOutboxTransport(transport: unknown): boolean {
  return typeof transport === 'object' && transport !== null && OUTBOX_DECORATED in transport;
}

function entriesOf(requests: readonly PublishRequest[]): OutboxEntry[] {
  return requests.flatMap((request) =>
    request.messages.map((message) => ({
      source: request.source,
      message: { ...message, headers: injectTraceContext(message.headers) },
      enqueueAt: request.enqueueAt ?? null,
    })),
  );
}

/**
 * Where a publisher's messages go when the outbox is on: `publish` stores them in the outbox (in the caller's or
 * the ambient transaction) instead of sending. Use `publishInTransaction` to pass a transaction explicitly.
 */
export class OutboxPublisherSink {
  constructor(readonly outbox: OutboxStore) {}

  publish(requests: readonly PublishRequest[]): Promise<void> {
    return this.publishInTransaction(requests, {});
  }

  async publishInTransaction(
    requests: readonly PublishRequest[],
    options: OutboxWriteOptions,
  ): Promise<void> {
    const entries = entriesOf(requests);
    if (entries.length === 0) return;
    await withSpan(
      SpanName.OutboxEnqueue,
      entries.length > 1 ? { [TelemetryAttribute.OutboxBatchSize]: entries.length } : {},
      () => this.outbox.storeBatch(entries, options),
      { scope: TelemetryScope.Outbox },
    );
    countMetric(TelemetryScope.Outbox, MetricName.OutboxEnqueued, {}, entries.length);
  }
}

/**
 * A transport whose `publish` and `schedule` write to the outbox; receiving, topology and operator calls go to
 * `inner` unchanged. Give it to publishers; never to the `OutboxDispatcher`, which needs the real transport.
 * A scheduled message gets the outbox row id as handle; cancelling it is not supported.
 */
export function createOutboxTransport(inner: Transport, outbox: OutboxStore): Transport {
  const sink = new OutboxPublisherSink(outbox);
  const overrides: Partial<Transport> = {
    name: `${inner.name}+outbox`,
    publish: (requests) => sink.publish(requests),
    async schedule(source: string, message: TransportMessage, at: Date): Promise<ScheduleHandle> {
      const [row] = await outbox.storeBatch([
        { source, message: { ...message, headers: injectTraceContext(message.headers) }, enqueueAt: at },
      ]);
      countMetric(TelemetryScope.Outbox, MetricName.OutboxEnqueued);
      return { id: row!.id, source };
    },
    async cancelScheduled(): Promise<void> {
      throw new TransportError(
        TransportErrorCode.InvalidArgument,
        'Scheduled messages written to the outbox cannot be cancelled',
      );
    },
  };
  return new Proxy(inner, {
    has: (target, property) => property === OUTBOX_DECORATED || Reflect.has(target, property),
    get(target, property) {
      if (property === OUTBOX_DECORATED) return true;
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof Transport];
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
