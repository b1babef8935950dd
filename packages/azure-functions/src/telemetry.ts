import type { InvocationContext } from '@azure/functions';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = trace.getTracer('@nimbus/azure-functions', '0.1.0');

/**
 * One span per Functions invocation, parented to the trace the host passed (W3C `traceparent`), with the FaaS
 * attributes of the OpenTelemetry semantic conventions. The engine's own consumer span nests inside it.
 */
export async function invocationSpan<T>(
  invocation: InvocationContext,
  input: string,
  sessionId: string,
  work: () => Promise<T>,
): Promise<T> {
  const carrier: Record<string, string> = {};
  const traceParent = invocation.traceContext?.traceParent;
  if (traceParent) carrier.traceparent = traceParent;
  if (invocation.traceContext?.traceState) carrier.tracestate = invocation.traceContext.traceState;
  const parent = propagation.extract(context.active(), carrier);
  return tracer.startActiveSpan(
    `${input} invoke`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'faas.trigger': 'pubsub',
        'faas.invocation_id': invocation.invocationId,
        'faas.name': invocation.functionName,
        'messaging.system': 'servicebus',
        'messaging.destination.name': input,
        'nimbus.session_id': sessionId,
      },
    },
    parent,
    async (span) => {
      try {
        return await work();
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
