import { type Link, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Clock } from '../clock.js';
import type { MessageEnvelope } from '../envelope/envelope.js';
import { Header } from '../envelope/headers.js';
import { MessageType } from '../envelope/message-type.js';
import { withProcessSpan } from '../telemetry/message-spans.js';
import { countMetric, recordDuration } from '../telemetry/metrics.js';
import {
  MessagingOperation,
  MetricName,
  Outcome,
  type SettleOperation,
  SpanName,
  TelemetryAttribute,
  TelemetryScope,
} from '../telemetry/names.js';
import { withSpan } from '../telemetry/with-span.js';
import type { SettleEffects } from '../transport/transport.js';
import type { TransportMessage } from '../transport/transport-message.js';

type Processed = string | { readonly kind: string };

/** The engine's spans and meters; everything is a no-op until the host registers an OpenTelemetry SDK. */
export interface EngineTelemetry {
  /** A consumer span `process {To}` parented to the message's trace; counts and times the outcome. */
  process<T extends Processed>(
    message: TransportMessage,
    fn: () => Promise<T>,
    replayLink?: Link,
  ): Promise<T>;
  queued(message: MessageEnvelope): void;
  settle(operation: SettleOperation, fn: () => Promise<void>): Promise<void>;
  settled(effects: SettleEffects): void;
  /** A `nimbus.deferred.replay` span around replaying parked messages; `fn` gets a link to it. */
  replay(sessionId: string, fn: (link: Link) => Promise<number>): Promise<number>;
}

function outcomeOf(kind: string): string {
  if (kind === 'completed' || kind === 'parked') return Outcome.Completed;
  if (kind === 'skipped') return Outcome.Skipped;
  return Outcome.Failed;
}

export function engineTelemetry(
  endpointId: string,
  system: string,
  clock: Pick<Clock, 'now'>,
): EngineTelemetry {
  const endpoint = { [TelemetryAttribute.Endpoint]: endpointId };
  return {
    async process(message, fn, replayLink) {
      const started = clock.now();
      if (!replayLink) countMetric(TelemetryScope.Consumer, MetricName.MessageReceived, endpoint);
      if (message.headers[Header.MessageType] === MessageType.RetryRequest)
        countMetric(TelemetryScope.Consumer, MetricName.MessageRetried, endpoint);
      let outcome: string = Outcome.Failed;
      try {
        return await withProcessSpan(
          message,
          system,
          async (span) => {
            const result = await fn();
            const kind = typeof result === 'string' ? result : result.kind;
            outcome = outcomeOf(kind);
            if (kind === 'deadLetter')
              countMetric(TelemetryScope.Consumer, MetricName.MessageDeadLettered, endpoint);
            span.setAttribute(TelemetryAttribute.Outcome, kind);
            if (outcome === Outcome.Failed) span.setStatus({ code: SpanStatusCode.ERROR, message: kind });
            return result;
          },
          { attributes: endpoint, ...(replayLink ? { links: [replayLink] } : {}) },
        );
      } finally {
        const attributes = { ...endpoint, [TelemetryAttribute.Outcome]: outcome };
        countMetric(TelemetryScope.Consumer, MetricName.MessageProcessed, attributes);
        recordDuration(
          TelemetryScope.Consumer,
          MetricName.MessageProcessDuration,
          clock.now() - started,
          attributes,
        );
      }
    },

    queued(message) {
      if (message.queueTimeMs !== null)
        recordDuration(TelemetryScope.Consumer, MetricName.MessageQueueWait, message.queueTimeMs, endpoint);
    },

    async settle(operation, fn) {
      await withSpan(
        SpanName.settle(operation),
        {
          ...endpoint,
          [TelemetryAttribute.OperationType]: MessagingOperation.Settle,
          [TelemetryAttribute.SettleOperation]: operation,
        },
        fn,
        { scope: TelemetryScope.Consumer },
      );
      countMetric(TelemetryScope.Consumer, MetricName.MessageSettled, {
        ...endpoint,
        [TelemetryAttribute.SettleOperation]: operation,
      });
    },

    settled(effects) {
      const parked = effects.park?.length ?? 0;
      if (parked > 0) {
        // Parking is planned inside the procedure and takes effect with the settlement: mark that moment.
        trace
          .getTracer(TelemetryScope.DeferredProcessor)
          .startSpan(SpanName.DeferredPark, {
            attributes: { ...endpoint, [TelemetryAttribute.DeferredBatchSize]: parked },
          })
          .end();
        countMetric(TelemetryScope.DeferredProcessor, MetricName.DeferredParked, endpoint, parked);
      }
      const unparked = effects.unpark?.length ?? 0;
      if (unparked > 0)
        countMetric(TelemetryScope.DeferredProcessor, MetricName.DeferredReplayed, endpoint, unparked);
    },

    async replay(sessionId, fn) {
      const started = clock.now();
      try {
        return await withSpan(
          SpanName.DeferredReplay,
          { ...endpoint, [TelemetryAttribute.SessionKey]: sessionId },
          async (span) => {
            const replayed = await fn({ context: span.spanContext() });
            span.setAttribute(TelemetryAttribute.DeferredBatchSize, replayed);
            return replayed;
          },
          { scope: TelemetryScope.DeferredProcessor },
        );
      } finally {
        recordDuration(
          TelemetryScope.DeferredProcessor,
          MetricName.DeferredReplayDuration,
          clock.now() - started,
          endpoint,
        );
      }
    },
  };
}
