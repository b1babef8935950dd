import type { TrackingRetention } from '@nimbus/message-store';
import type { MessageStoreSlices } from '@nimbus/message-store/provider';
import { sweepExpiredRows } from '../retention/sweep-expired.js';
import { AuditsAndReports } from './audits-and-reports.js';
import { SqlEndpointMetadataStore } from './endpoint-metadata-store.js';
import { EndpointViews } from './endpoint-views.js';
import { EventLookups } from './event-lookups.js';
import { EventSearch } from './event-search.js';
import { SqlFailureGroups } from './failure-groups.js';
import { SqlHeartbeatHistoryStore } from './heartbeat-history-store.js';
import { LifecycleOperations } from './lifecycle.js';
import { MessageHistory } from './message-history.js';
import { SqlMetricsStore } from './metrics-store.js';
import { SqlServiceHealthStore } from './service-health-store.js';
import { foldAllStatusCountDeltas } from './status-counts.js';
import { SqlStatusWrites } from './status-writes.js';
import type { StoreContext } from './store-context.js';
import { SqlSubscriptionStore } from './subscription-store.js';

/** Deletes what is past its expiry, in statements of `batchSize` rows. */
export class SqlRetention implements TrackingRetention {
  constructor(
    private readonly context: StoreContext,
    private readonly batchSize: number,
  ) {}

  async sweepExpired(now?: Date) {
    const { context } = this;
    const result = await sweepExpiredRows(context, now?.getTime() ?? context.clock.now(), this.batchSize);
    // The deletes left one count delta per statement; a sweep can be large, so it folds what it left.
    if (context.dialect.name === 'postgres') await foldAllStatusCountDeltas(context.dialect.db);
    return result;
  }
}

/** Every contract slice of the SQL store, each one class over the shared context. */
export function sqlStoreSlices(context: StoreContext, sweepBatchSize: number): MessageStoreSlices {
  const history = new MessageHistory(context);
  return {
    statusWrites: new SqlStatusWrites(context),
    lifecycle: new LifecycleOperations(context),
    lookups: new EventLookups(context),
    search: new EventSearch(context),
    failureGroups: new SqlFailureGroups(context),
    views: new EndpointViews(context),
    history,
    audits: new AuditsAndReports(context),
    retention: new SqlRetention(context, sweepBatchSize),
    subscriptions: new SqlSubscriptionStore(context),
    metadata: new SqlEndpointMetadataStore(context),
    metrics: new SqlMetricsStore(context),
    serviceHealth: new SqlServiceHealthStore(context),
    heartbeatHistory: new SqlHeartbeatHistoryStore(context),
  };
}
