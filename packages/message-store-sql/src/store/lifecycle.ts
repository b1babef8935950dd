import {
  FIXED_RETENTION_MS,
  type PurgeScope,
  type TrackedEventKey,
  type TrackingRowLifecycle,
} from '@nimbus/message-store';
import type { StoreContext } from './store-context.js';

/** Soft deletes. `removed` rows expire after the short soft-delete retention, `archived` ones much later. */
export const DeletionKind = { Removed: 'removed', Archived: 'archived' } as const;
type DeletionKindName = (typeof DeletionKind)[keyof typeof DeletionKind];

export class LifecycleOperations implements TrackingRowLifecycle {
  constructor(private readonly context: StoreContext) {}

  /** A soft delete restamps the row's expiry with the fixed retention of its kind. */
  private softDelete(endpointId: string, kind: DeletionKindName) {
    const now = this.context.clock.now();
    const retentionMs =
      kind === DeletionKind.Removed
        ? FIXED_RETENTION_MS.softDeletedRows
        : FIXED_RETENTION_MS.archivedFailedRows;
    return this.context.dialect.db
      .updateTable('unresolved_events')
      .set({ deleted: 1, deleted_at: now, deletion_kind: kind, expires_at: now + retentionMs })
      .where('endpoint_id', '=', endpointId)
      .where('deleted', '=', 0);
  }

  async removeMessage({ endpointId, eventId, sessionId }: TrackedEventKey): Promise<boolean> {
    const result = await this.softDelete(endpointId, DeletionKind.Removed)
      .where('event_id', '=', eventId)
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async purgeMessages({ endpointId, sessionId }: PurgeScope): Promise<boolean> {
    let query = this.softDelete(endpointId, DeletionKind.Removed);
    if (sessionId !== undefined) query = query.where('session_id', '=', sessionId);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async archiveFailedEvent({ endpointId, eventId, sessionId }: TrackedEventKey): Promise<void> {
    await this.softDelete(endpointId, DeletionKind.Archived)
      .where('event_id', '=', eventId)
      .where('session_id', '=', sessionId)
      .execute();
  }
}
