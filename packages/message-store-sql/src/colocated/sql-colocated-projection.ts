import {
  type Clock,
  consoleLogger,
  decodeEnvelope,
  type Logger,
  type MessageEnvelope,
  systemClock,
  type TransportMessage,
} from '@nimbus/core';
import {
  type ColocatedProjection,
  handoffProcessingTimeMs,
  type MessageRef,
  type MessageStateChangeNotifier,
  mayNeedStoreReads,
  noopStateChangeNotifier,
  type PlainTracking,
  type ProjectionPlan,
  type ProjectionSqlExecutor,
  parseRetentionOptions,
  plainStatusWrite,
  plainTracking,
  type RetentionOptions,
} from '@nimbus/message-store';
import { notifyAfterCommit } from '@nimbus/message-store/provider';
import { type ConnectionOptions, resolveConnectionSettings } from '../config/resolve-connection-settings.js';
import { readEventHistory, readMessage } from '../store/message-history.js';
import { DeltaFolding } from '../store/status-counts.js';
import { writeTrackingBatch } from '../store/status-writes.js';
import { kyselyOver } from './executor-kysely.js';

export interface SqlColocatedProjectionOptions extends ConnectionOptions {
  /** Stamps `created_at`/`updated_at` and each history record's enqueued time; default the system clock. */
  readonly clock?: Clock;
  /** Told once per endpoint after each transport transaction that changed its rows (the store's notifier). */
  readonly notifier?: MessageStateChangeNotifier;
  readonly logger?: Logger;
  /** The same retention the store is opened with (rows get their expiry when written). */
  readonly retention?: Partial<RetentionOptions>;
}

interface SqlPlan extends ProjectionPlan {
  readonly tracking: PlainTracking;
  readonly envelope: MessageEnvelope;
}

/**
 * The co-located projection of the SQL message store: give it to a SQL transport on the same database (the same
 * PostgreSQL database, the same SQLite file) as `createSqlTransport(connection, { projection })`, with the same
 * connection options as the store (dialect and schema; the store must have been opened once, so its tables
 * exist). The history record and the guarded status row of each plain copy addressed to the Resolver are then
 * written in the transaction that settles or publishes it, with the store's own write functions.
 */
export function createSqlColocatedProjection(
  options: SqlColocatedProjectionOptions = {},
): ColocatedProjection {
  const settings = resolveConnectionSettings(options);
  const placement =
    settings.dialect === 'sqlite' ? { prefix: `${settings.schema}_` } : { schema: settings.schema };
  const context = {
    clock: options.clock ?? systemClock,
    retention: parseRetentionOptions({ env: options.env ?? process.env, options: options.retention ?? {} }),
  };
  const notifier = options.notifier ?? noopStateChangeNotifier;
  const logger = options.logger ?? consoleLogger;
  const folding = new DeltaFolding(context.clock, logger);
  return {
    dialect: settings.dialect,
    plan(message: TransportMessage): ProjectionPlan | null {
      let envelope: MessageEnvelope;
      try {
        envelope = decodeEnvelope(message);
      } catch {
        return null; // the Resolver dead-letters it with the list of its problems
      }
      const enqueuedAt = new Date(context.clock.now());
      const tracking = plainTracking({ envelope, headers: message.headers, enqueuedAt });
      if (tracking === null || tracking.record.eventId === '') return null;
      const plan: SqlPlan = { endpointId: tracking.endpointId, tracking, envelope };
      return plan;
    },
    async write(tx: ProjectionSqlExecutor, plans: readonly ProjectionPlan[]): Promise<readonly string[]> {
      if (plans.length === 0) return [];
      const sqlPlans = plans as readonly SqlPlan[];
      const db = kyselyOver(settings.dialect, placement, tx);
      // The outcome of a Manager request (a handoff settlement) is timed from the event's history, read in this
      // transaction as the Resolver would read it: projecting it here keeps every outcome of a session on one
      // path, so an earlier outcome can never land after a later one.
      const history = {
        getMessage: (ref: MessageRef) => readMessage(db, ref),
        getEventHistory: (eventId: string) => readEventHistory(db, eventId),
      };
      const statuses = [];
      for (const p of sqlPlans) {
        const timing = mayNeedStoreReads(p.envelope)
          ? await handoffProcessingTimeMs(history, p.envelope, context.clock)
          : null;
        statuses.push(plainStatusWrite(p.tracking, p.envelope, timing));
      }
      const { statusesWritten } = await writeTrackingBatch(db, context, {
        messages: sqlPlans.map((p) => p.tracking.record),
        statuses,
      });
      return [...new Set(sqlPlans.filter((_, i) => statusesWritten[i]).map((p) => p.endpointId))];
    },
    async committed(db: ProjectionSqlExecutor, endpoints: Iterable<string>): Promise<void> {
      if (settings.dialect === 'postgres')
        await folding.afterCommit(kyselyOver(settings.dialect, placement, db));
      const changes = [...endpoints].map((endpointId) => ({ kind: 'endpoint' as const, endpointId }));
      await notifyAfterCommit(notifier, changes, logger);
    },
  };
}
