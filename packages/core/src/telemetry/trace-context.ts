import {
  type Context,
  context,
  createTraceState,
  isSpanContextValid,
  ROOT_CONTEXT,
  type SpanContext,
  TraceFlags,
  trace,
} from '@opentelemetry/api';
import { Header, type Headers } from '../envelope/headers.js';

const TRACE_PARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** W3C `traceparent` for a span context (version 00). */
export function formatTraceParent(spanContext: SpanContext): string {
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
}

/** Parses a W3C `traceparent`; `null` when it is absent, malformed or all-zero. */
export function parseTraceParent(
  value: string | null | undefined,
  traceState?: string | null,
): SpanContext | null {
  const match = value ? TRACE_PARENT.exec(value.trim().toLowerCase()) : null;
  if (!match || match[1] === 'ff') return null;
  const spanContext: SpanContext = {
    traceId: match[2]!,
    spanId: match[3]!,
    traceFlags: Number.parseInt(match[4]!, 16) & TraceFlags.SAMPLED,
    isRemote: true,
    ...(traceState ? { traceState: createTraceState(traceState) } : {}),
  };
  return isSpanContextValid(spanContext) ? spanContext : null;
}

/**
 * Returns `headers` with `traceparent`/`tracestate` of the span active in `ctx` (default: the current context).
 * Written directly, not through the global propagator, so messages carry W3C context whatever the host
 * registered. Without a valid active span the headers are returned unchanged.
 */
export function injectTraceContext(headers: Headers, ctx: Context = context.active()): Headers {
  const spanContext = trace.getSpanContext(ctx);
  if (!spanContext || !isSpanContextValid(spanContext)) return headers;
  const next: Record<string, string> = { ...headers, [Header.TraceParent]: formatTraceParent(spanContext) };
  const state = spanContext.traceState?.serialize();
  if (state) next[Header.TraceState] = state;
  else delete next[Header.TraceState];
  return next;
}

/** The context whose parent is the message's remote span; `base` when the message carries none. */
export function extractTraceContext(headers: Headers, base: Context = ROOT_CONTEXT): Context {
  const spanContext = parseTraceParent(headers[Header.TraceParent], headers[Header.TraceState]);
  return spanContext ? trace.setSpanContext(base, spanContext) : base;
}

/** True when the headers carry a valid `traceparent`. */
export function hasTraceContext(headers: Headers): boolean {
  return parseTraceParent(headers[Header.TraceParent]) !== null;
}

/** The envelope fields `traceParent`/`traceState` for the span active in `ctx`; nulls without a valid span. */
export function activeTraceFields(ctx: Context = context.active()): {
  traceParent: string | null;
  traceState: string | null;
} {
  const spanContext = trace.getSpanContext(ctx);
  if (!spanContext || !isSpanContextValid(spanContext)) return { traceParent: null, traceState: null };
  return {
    traceParent: formatTraceParent(spanContext),
    traceState: spanContext.traceState?.serialize() || null,
  };
}
