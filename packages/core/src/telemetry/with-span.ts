import {
  type Attributes,
  type Context,
  context,
  type Link,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { TelemetryAttribute, type TelemetryScope } from './names.js';

export interface WithSpanOptions {
  /** Tracer name; default `nimbus.consumer`. */
  readonly scope?: TelemetryScope | string;
  readonly kind?: SpanKind;
  /** Parent context; default the active one. Pass `extractTraceContext(headers)` for a consumer span. */
  readonly parent?: Context;
  readonly links?: readonly Link[];
}

function errorTypeOf(error: unknown): string {
  if (error instanceof Error) return error.name || error.constructor.name;
  return typeof error;
}

/** Marks a span failed: status ERROR, `error.type`, and an exception event. */
export function recordSpanError(span: Span, error: unknown): void {
  span.setAttribute(TelemetryAttribute.ErrorType, errorTypeOf(error));
  if (error instanceof Error) span.recordException(error);
  else span.recordException(String(error));
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

/**
 * Runs `fn` inside a new active span and ends it afterwards. A thrown error (or rejected promise) marks the span
 * failed and is rethrown unchanged.
 */
export async function withSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T> | T,
  options: WithSpanOptions = {},
): Promise<T> {
  const tracer = trace.getTracer(options.scope ?? 'nimbus.consumer');
  const parent = options.parent ?? context.active();
  const span = tracer.startSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes, links: options.links ? [...options.links] : [] },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    recordSpanError(span, error);
    throw error;
  } finally {
    span.end();
  }
}
