import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { beforeEach, describe, expect, it } from 'vitest';
import { MessageType } from '../../src/index.js';
import { setup } from '../engine/engine-fixture.js';
import { control, event } from '../engine/fake-session.js';
import { installInMemoryTracing } from './otel-fixture.js';

const tracing = installInMemoryTracing();
beforeEach(() => tracing.reset());

const publishedIn = (trace: string, span: string) => `00-${trace}-${span}-01`;
const TRACE_A = 'a'.repeat(32);
const TRACE_B = 'b'.repeat(32);

describe('engine spans', () => {
  it('processes each message in a consumer span under its traceparent; responses carry that span', async () => {
    const f = setup();
    await f.deliver(event({ traceParent: publishedIn(TRACE_A, '1'.repeat(16)) }));
    const process = tracing.spans().find((s) => s.kind === SpanKind.CONSUMER);
    expect(process?.spanContext().traceId).toBe(TRACE_A);
    expect(process?.parentSpanContext?.spanId).toBe('1'.repeat(16));
    expect(process?.attributes['nimbus.outcome']).toBe('completed');
    const [resolution] = f.session.responses(MessageType.ResolutionResponse);
    expect(resolution?.traceParent).toBe(publishedIn(TRACE_A, process!.spanContext().spanId));
    const settle = tracing.spans().find((s) => s.name === 'settle complete');
    expect(settle?.parentSpanContext?.spanId).toBe(process?.spanContext().spanId);
  });

  it('a failing handler marks the process span failed', async () => {
    const f = setup();
    f.handler.script = () => {
      throw new Error('boom');
    };
    await f.deliver(event());
    const process = tracing.spans().find((s) => s.kind === SpanKind.CONSUMER);
    expect(process?.status.code).toBe(SpanStatusCode.ERROR);
    expect(process?.attributes['nimbus.outcome']).toBe('failed');
  });

  it('parking is marked; a replayed message continues its own trace, linked to the replay span', async () => {
    const f = setup();
    f.handler.script = (c) => {
      if (c.message.eventId === 'blocker') throw new Error('x');
    };
    await f.deliver(event({ eventId: 'blocker' }));
    await f.deliver(event({ eventId: 'parked', traceParent: publishedIn(TRACE_B, '2'.repeat(16)) }));
    expect(tracing.spans().filter((s) => s.name === 'nimbus.deferred.park')).toHaveLength(1);
    tracing.reset();
    await f.deliver(control(MessageType.SkipRequest, event({ eventId: 'blocker' })));
    const replay = tracing.spans().find((s) => s.name === 'nimbus.deferred.replay');
    expect(replay?.attributes['nimbus.deferred.batch_size']).toBe(1);
    const replayed = tracing
      .spans()
      .find((s) => s.kind === SpanKind.CONSUMER && s.spanContext().traceId === TRACE_B);
    expect(replayed?.parentSpanContext?.spanId).toBe('2'.repeat(16));
    expect(replayed?.links.map((l) => l.context.spanId)).toEqual([replay?.spanContext().spanId]);
    const resolution = f.session
      .responses(MessageType.ResolutionResponse)
      .find((r) => r.eventId === 'parked');
    expect(resolution?.traceParent).toBe(publishedIn(TRACE_B, replayed!.spanContext().spanId));
  });
});
