import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  extractTraceContext,
  formatTraceParent,
  Header,
  injectTraceContext,
  MessagingOperation,
  parseTraceParent,
  SpanName,
  TelemetryAttribute,
  type TransportMessage,
  withProcessSpan,
  withPublishSpan,
  withSpan,
} from '../../src/index.js';
import { installInMemoryTracing } from './otel-fixture.js';

const tracing = installInMemoryTracing();
beforeEach(() => tracing.reset());

const message: TransportMessage = {
  messageId: 'm-1',
  sessionId: 'customer-7',
  correlationId: 'c-1',
  headers: { [Header.To]: 'Erp', [Header.EventTypeId]: 'OrderPlaced', [Header.MessageType]: 'EventRequest' },
  body: '{}',
};

describe('W3C trace context', () => {
  it('formats and parses traceparent round trip', () => {
    const parsed = parseTraceParent('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'vendor=abc');
    expect(parsed).toMatchObject({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: 1,
      isRemote: true,
    });
    expect(parsed?.traceState?.get('vendor')).toBe('abc');
    expect(formatTraceParent(parsed!)).toBe('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
  });

  it('rejects malformed and all-zero traceparents', () => {
    expect(parseTraceParent('garbage')).toBeNull();
    expect(parseTraceParent(undefined)).toBeNull();
    expect(parseTraceParent('00-00000000000000000000000000000000-b7ad6b7169203331-01')).toBeNull();
    expect(parseTraceParent('ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01')).toBeNull();
  });

  it('injects the active span into headers and extracts it back as the remote parent', async () => {
    let stamped: Record<string, string> = {};
    await withSpan('outer', {}, (span) => {
      stamped = { ...injectTraceContext({ a: 'b' }) };
      expect(stamped[Header.TraceParent]).toBe(formatTraceParent(span.spanContext()));
    });
    expect(stamped.a).toBe('b');
    const extracted = trace.getSpanContext(extractTraceContext(stamped));
    expect(extracted?.traceId).toBe(tracing.spans()[0]!.spanContext().traceId);
    expect(extracted?.isRemote).toBe(true);
  });

  it('leaves headers unchanged without an active span and extracts nothing from them', () => {
    const headers = { x: '1' };
    expect(injectTraceContext(headers, ROOT_CONTEXT)).toBe(headers);
    expect(extractTraceContext(headers)).toBe(ROOT_CONTEXT);
  });
});

describe('withSpan', () => {
  it('ends the span and returns the value', async () => {
    await expect(withSpan('work', { k: 'v' }, () => 42)).resolves.toBe(42);
    const [span] = tracing.spans();
    expect(span?.name).toBe('work');
    expect(span?.attributes.k).toBe('v');
    expect(span?.ended).toBe(true);
  });

  it('marks the span failed with error.type and rethrows the original error', async () => {
    class UnavailableError extends Error {
      override name = 'UnavailableError';
    }
    const error = new UnavailableError('503');
    await expect(withSpan('work', {}, async () => Promise.reject(error))).rejects.toBe(error);
    const [span] = tracing.spans();
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes[TelemetryAttribute.ErrorType]).toBe('UnavailableError');
    expect(span?.events.map((e) => e.name)).toContain('exception');
  });
});

describe('publish → process spans', () => {
  it('produce one trace: the process span is the child of the publish span, with documented attributes', async () => {
    const sent = await withPublishSpan(message, 'nimbus.inmemory', (stamped) => stamped);
    await withProcessSpan(sent, 'nimbus.inmemory', () => undefined);
    const [publish, process] = tracing.spans();
    expect(publish?.name).toBe(SpanName.publish('Erp'));
    expect(publish?.kind).toBe(SpanKind.PRODUCER);
    expect(process?.name).toBe(SpanName.process('Erp'));
    expect(process?.kind).toBe(SpanKind.CONSUMER);
    expect(process?.spanContext().traceId).toBe(publish?.spanContext().traceId);
    expect(process?.parentSpanContext?.spanId).toBe(publish?.spanContext().spanId);
    for (const [span, operation] of [
      [publish, MessagingOperation.Publish],
      [process, MessagingOperation.Process],
    ] as const) {
      expect(span?.attributes).toMatchObject({
        [TelemetryAttribute.MessagingSystem]: 'nimbus.inmemory',
        [TelemetryAttribute.OperationType]: operation,
        [TelemetryAttribute.DestinationName]: 'Erp',
        [TelemetryAttribute.MessageId]: 'm-1',
        [TelemetryAttribute.EventType]: 'OrderPlaced',
      });
    }
    expect(process?.attributes[TelemetryAttribute.HasParentTrace]).toBe(true);
  });

  it('starts a new trace for a message without traceparent', async () => {
    await withProcessSpan(message, 'nimbus.inmemory', () => undefined);
    const [process] = tracing.spans();
    expect(process?.parentSpanContext).toBeUndefined();
    expect(process?.attributes[TelemetryAttribute.HasParentTrace]).toBe(false);
  });
});
