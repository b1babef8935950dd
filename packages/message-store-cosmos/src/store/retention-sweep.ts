import type { Container } from '@azure/cosmos';
import {
  FINISHED_STATUSES,
  type ResolutionStatus,
  type RetentionSweepResult,
  type TrackingRetention,
} from '@nimbus/message-store';
import { type CosmosStoreContext, queryAll } from './cosmos-context.js';
import { isCosmosStatus } from './cosmos-errors.js';
import type { RowVisibility } from './tracking-document.js';

interface ExpiredRow {
  readonly id: string;
  readonly pk: string;
  readonly visibility?: RowVisibility;
  readonly resolutionStatus?: ResolutionStatus;
}

async function deleteExpired(container: Container, pkField: string, now: number): Promise<ExpiredRow[]> {
  const expired = await queryAll<ExpiredRow>(
    container,
    `SELECT c.id, c.${pkField} AS pk, c.visibility, c.resolutionStatus FROM c WHERE IS_NUMBER(c.expiresAt) AND c.expiresAt <= @now`,
    [{ name: '@now', value: now }],
  );
  const deleted: ExpiredRow[] = [];
  for (const row of expired) {
    try {
      await container.item(row.id, row.pk).delete();
      deleted.push(row);
    } catch (error) {
      // Cosmos's own TTL (or another sweeper) removed it first.
      if (!isCosmosStatus(error, 404)) throw error;
    }
  }
  return deleted;
}

/**
 * Deletes what is past its retention at `now` by the store clock. On Azure, Cosmos's item TTL (`ttl`
 * written with every document, containers with `defaultTtl = -1`) deletes the same documents on its own
 * from their last write; this sweep is what the store contract and an explicit operator run use, and
 * what the local test server can check.
 */
export class CosmosRetentionSweep implements TrackingRetention {
  constructor(private readonly context: CosmosStoreContext) {}

  async sweepExpired(at?: Date): Promise<RetentionSweepResult> {
    const now = at?.getTime() ?? this.context.clock.now();
    const result = {
      unresolvedRows: 0,
      terminalRows: 0,
      softDeletedRows: 0,
      archivedRows: 0,
      messages: 0,
      audits: 0,
    };
    for (const endpointId of await this.context.endpointIds()) {
      const container = await this.context.endpointContainer(endpointId);
      if (container === null) continue;
      for (const row of await deleteExpired(container, 'sessionId', now)) {
        if (row.visibility === 'removed') result.softDeletedRows += 1;
        else if (row.visibility === 'archived') result.archivedRows += 1;
        else if (row.resolutionStatus !== undefined && FINISHED_STATUSES.has(row.resolutionStatus))
          result.terminalRows += 1;
        else result.unresolvedRows += 1;
      }
    }
    result.messages = (await deleteExpired(this.context.container('messages'), 'eventId', now)).length;
    result.audits = (await deleteExpired(this.context.container('audits'), 'eventId', now)).length;
    return result;
  }
}
