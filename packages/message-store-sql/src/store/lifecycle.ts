import type { TrackingRowLifecycle } from '@nimbus/message-store';
import { notifyAfterCommit, type StoreContext } from './store-context.js';

/** Soft deletes. `removed` rows expire after the short soft-delete retention, `archived` ones much later. */
export const DeletionKind = { Removed: 'removed', Archived: 'archived' } as const;

export class LifecycleOperations implements TrackingRowLifecycle {
  constructor(private readonly context: StoreContext) {}

  private softDelete(endpointId: string, kind: string) {
    return this.context.dialect.db
      .updateTable('unresolved_events')
      .set({ deleted: 1, deleted_at: this.context.clock.now(), deletion_kind: kind })
      .where('endpoint_id', '=', endpointId)
      .where('deleted', '=', 0);
  }

  async removeMessage(eventId: string, sessionId: string, endpointId: string): Promise<boolean> {
    const result = await this.softDelete(endpointId, DeletionKind.Removed)
      .where('event_id', '=', eventId)
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    const removed = Number(result.numUpdatedRows) > 0;
    if (removed) await notifyAfterCommit(this.context, 'endpoint', endpointId);
    return removed;
  }

  async purgeMessages(endpointId: string, sessionId?: string): Promise<boolean> {
    let query = this.softDelete(endpointId, DeletionKind.Removed);
    if (sessionId !== undefined) query = query.where('session_id', '=', sessionId);
    const result = await query.executeTakeFirst();
    const purged = Number(result.numUpdatedRows) > 0;
    if (purged) await notifyAfterCommit(this.context, 'endpoint', endpointId);
    return purged;
  }

  async archiveFailedEvent(eventId: string, sessionId: string, endpointId: string): Promise<void> {
    const result = await this.softDelete(endpointId, DeletionKind.Archived)
      .where('event_id', '=', eventId)
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) await notifyAfterCommit(this.context, 'endpoint', endpointId);
  }
}
