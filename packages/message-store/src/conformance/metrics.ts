import { MessageType } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import type { MetricsStore } from '../contracts/metrics-store.js';
import type { ConformanceStoreFactory } from './factory.js';
import { content, HOUR, MINUTE, sampleMessage } from './fixtures.js';
import { storeOpener } from './harness.js';

type Store = MetricsStore & Pick<MessageTrackingStore, 'storeMessage'>;

export function describeMetricsStoreConformance(
  providerName: string,
  factory: ConformanceStoreFactory<Store>,
): void {
  describe(`MetricsStore conformance [${providerName}]`, () => {
    const open = storeOpener(factory);

    it('getEndpointMetrics counts published under the publisher and handled/failed under the receiver', async () => {
      const { store, clock, id } = await open();
      const [pub, sub, type] = [id('crm'), id('erp'), id('OrderPlaced')];
      const from = new Date(clock.now() - MINUTE);
      const put = (messageId: string, messageType: MessageType, offset = 0) =>
        store.storeMessage(
          sampleMessage(clock, id('e'), messageId, sub, {
            messageType,
            from: pub,
            eventTypeId: type,
            enqueuedTimeUtc: new Date(clock.now() + offset),
          }),
        );
      await put('req', MessageType.EventRequest);
      await put('ok', MessageType.ResolutionResponse);
      await put('err', MessageType.ErrorResponse);
      await put('old', MessageType.EventRequest, -HOUR);
      const metrics = await store.getEndpointMetrics(from);
      expect(metrics.published.filter((c) => c.eventTypeId === type)).toEqual([
        { endpointId: pub, eventTypeId: type, count: 1 },
      ]);
      expect(metrics.handled.filter((c) => c.eventTypeId === type)).toEqual([
        { endpointId: sub, eventTypeId: type, count: 1 },
      ]);
      expect(metrics.failed.filter((c) => c.eventTypeId === type)).toEqual([
        { endpointId: sub, eventTypeId: type, count: 1 },
      ]);
    });

    it('getEndpointLatencyMetrics aggregates outcome timings since from', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const put = (messageId: string, messageType: MessageType, q: number, p: number, offset = 0) =>
        store.storeMessage(
          sampleMessage(clock, id('e'), messageId, ep, {
            messageType,
            queueTimeMs: q,
            processingTimeMs: p,
            enqueuedTimeUtc: new Date(clock.now() + offset),
          }),
        );
      await put('ok', MessageType.ResolutionResponse, 10, 100);
      await put('err', MessageType.ErrorResponse, 30, 300);
      await put('old', MessageType.ResolutionResponse, 1000, 1000, -HOUR);
      await put('req', MessageType.EventRequest, 5000, 5000);
      const row = (await store.getEndpointLatencyMetrics(new Date(clock.now() - MINUTE))).latencies.find(
        (l) => l.endpointId === ep,
      );
      expect(row?.queue).toEqual({ count: 2, avgMs: 20, minMs: 10, maxMs: 30 });
      expect(row?.processing).toMatchObject({ count: 2, avgMs: 200 });
    });

    it('getFailedMessageInsights lists error responses with their error text', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.storeMessage(
        sampleMessage(clock, id('e'), 'err', ep, {
          messageType: MessageType.ErrorResponse,
          messageContent: content('{}', 'Downstream timeout'),
        }),
      );
      const rows = (await store.getFailedMessageInsights(new Date(clock.now() - MINUTE))).filter(
        (r) => r.endpointId === ep,
      );
      expect(rows).toEqual([
        {
          endpointId: ep,
          eventTypeId: 'OrderPlaced',
          errorText: 'Downstream timeout',
          enqueuedTimeUtc: new Date(clock.now()),
          eventId: id('e'),
        },
      ]);
    });

    it('getTimeSeriesMetrics zero-fills hour buckets and counts message types', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const from = new Date(clock.now() - 2 * HOUR);
      for (const [messageId, messageType] of [
        ['req', MessageType.EventRequest],
        ['ok', MessageType.ResolutionResponse],
        ['err', MessageType.ErrorResponse],
      ] as const) {
        await store.storeMessage(
          sampleMessage(clock, id('e'), messageId, ep, {
            messageType,
            enqueuedTimeUtc: new Date(clock.now() + MINUTE),
          }),
        );
      }
      const series = await store.getTimeSeriesMetrics({ from, substringLength: 13, bucketLabel: 'hour' });
      expect(series.bucketSize).toBe('hour');
      const key = new Date(clock.now() + MINUTE).toISOString().slice(0, 13);
      expect(series.dataPoints.find((b) => b.timestamp === key)).toMatchObject({
        published: 1,
        handled: 1,
        failed: 1,
      });
      const earlier = from.toISOString().slice(0, 13);
      expect(series.dataPoints[0]?.timestamp).toBe(earlier);
      expect(series.dataPoints.map((b) => b.timestamp)).toEqual(
        [...series.dataPoints.map((b) => b.timestamp)].sort(),
      );
    });

    it('getEndpointTimeSeriesMetrics counts per endpoint and bucket, with the processing time of outcomes', async () => {
      const { store, clock, id } = await open();
      const [pub, sub] = [id('crm'), id('erp')];
      const put = (
        messageId: string,
        messageType: MessageType,
        processingTimeMs: number | null,
        offset = 0,
      ) =>
        store.storeMessage(
          sampleMessage(clock, id('e'), messageId, sub, {
            messageType,
            from: pub,
            processingTimeMs,
            enqueuedTimeUtc: new Date(clock.now() + offset),
          }),
        );
      await put('req1', MessageType.EventRequest, null);
      await put('req2', MessageType.EventRequest, null);
      await put('ok', MessageType.ResolutionResponse, 100);
      await put('err', MessageType.ErrorResponse, 300);
      await put('deferred', MessageType.DeferralResponse, null);
      await put('earlier', MessageType.ResolutionResponse, 50, -2 * MINUTE);
      await put('too-old', MessageType.ResolutionResponse, 9999, -HOUR);
      const result = await store.getEndpointTimeSeriesMetrics({
        from: new Date(clock.now() - 5 * MINUTE),
        substringLength: 16,
        bucketLabel: 'minute',
      });
      expect(result.bucketSize).toBe('minute');
      const mine = result.dataPoints.filter((p) => p.endpointId === pub || p.endpointId === sub);
      const minute = (offset: number) => new Date(clock.now() + offset).toISOString().slice(0, 16);
      expect(mine).toEqual([
        {
          timestamp: minute(-2 * MINUTE),
          endpointId: sub,
          published: 0,
          handled: 1,
          failed: 0,
          processing: { count: 1, avgMs: 50, minMs: 50, maxMs: 50 },
        },
        ...[
          {
            timestamp: minute(0),
            endpointId: pub,
            published: 2,
            handled: 0,
            failed: 0,
            processing: { count: 0, avgMs: 0, minMs: 0, maxMs: 0 },
          },
          {
            timestamp: minute(0),
            endpointId: sub,
            published: 0,
            handled: 1,
            failed: 1,
            processing: { count: 2, avgMs: 200, minMs: 100, maxMs: 300 },
          },
        ].sort((a, b) => (a.endpointId < b.endpointId ? -1 : 1)),
      ]);
    });

    it('getEventTypeTimeSeriesMetrics buckets published counts by event type', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const type = id('Type');
      const put = (messageId: string, messageType: MessageType) =>
        store.storeMessage(sampleMessage(clock, id('e'), messageId, ep, { messageType, eventTypeId: type }));
      await put('r1', MessageType.EventRequest);
      await put('r2', MessageType.EventRequest);
      await put('ok', MessageType.ResolutionResponse);
      const result = await store.getEventTypeTimeSeriesMetrics({
        from: new Date(clock.now() - MINUTE),
        substringLength: 16,
        bucketLabel: 'minute',
      });
      const entry = result.series.find((s) => s.eventTypeId === type);
      expect(entry?.total).toBe(2);
      expect(entry?.dataPoints).toEqual([
        { timestamp: new Date(clock.now()).toISOString().slice(0, 16), published: 2 },
      ]);
    });
  });
}
