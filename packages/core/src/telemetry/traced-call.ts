import type { Attributes, Context, SpanKind } from '@opentelemetry/api';
import type { Clock } from '../clock.js';
import { recordDuration } from './metrics.js';
import { type MetricName, Outcome, TelemetryAttribute, type TelemetryScope } from './names.js';
import { withSpan } from './with-span.js';

export type CallOutcome = typeof Outcome.Completed | typeof Outcome.Failed;

export interface TracedCallOptions {
  readonly scope: TelemetryScope;
  /** The span's name. */
  readonly span: string;
  /** On the span and on every metric of the call. */
  readonly attributes: Attributes;
  /** On the span only (ids that would explode a metric's label set). */
  readonly spanAttributes?: Attributes;
  /** The histogram the call's duration goes to, labelled with `attributes` and `nimbus.outcome`. */
  readonly duration: MetricName;
  readonly clock: Pick<Clock, 'now'>;
  readonly parent?: Context;
  readonly kind?: SpanKind;
  /** Told once the call settled, before the duration is recorded: the place for the call's counters. */
  readonly onSettled?: (outcome: CallOutcome, measured: Attributes) => void;
}

/**
 * The one tracing wrapper of a traced decorator (the store's chain, the Resolver's writes): `fn` runs in a
 * span (a failure marks it and is rethrown unchanged), and its duration is recorded with the outcome.
 */
export async function tracedCall<T>(options: TracedCallOptions, fn: () => Promise<T>): Promise<T> {
  const started = options.clock.now();
  let outcome: CallOutcome = Outcome.Failed;
  try {
    const result = await withSpan(options.span, { ...options.attributes, ...options.spanAttributes }, fn, {
      scope: options.scope,
      ...(options.parent ? { parent: options.parent } : {}),
      ...(options.kind === undefined ? {} : { kind: options.kind }),
    });
    outcome = Outcome.Completed;
    return result;
  } finally {
    const measured = { ...options.attributes, [TelemetryAttribute.Outcome]: outcome };
    options.onSettled?.(outcome, measured);
    recordDuration(options.scope, options.duration, options.clock.now() - started, measured);
  }
}
