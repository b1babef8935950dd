import { MessageType } from '@nimbus/core';
import { ResolutionStatus, TERMINAL_STATUSES } from '@nimbus/message-store';
import { CONTROL_REQUEST_TYPES } from '@nimbus/message-store/provider';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { StoreDatabase } from '../schema/database.js';

type UpsertScope = ExpressionBuilder<
  StoreDatabase & { excluded: StoreDatabase['unresolved_events'] },
  'unresolved_events' | 'excluded'
>;

const list = (values: Iterable<string>) => sql.join([...values].map((v) => sql.lit(v)));

/**
 * `decideStatusWrite` as one SQL condition over the stored row (`unresolved_events`, locked by the upsert)
 * and the incoming one (`excluded`): true means write. Every term is NULL-free, so the condition is never
 * unknown. The guard-equivalence test compares both for every combination of stored and incoming row.
 */
export function statusWriteAllowed(eb: UpsertScope): Expression<SqlBool> {
  const stored = (column: 'status' | 'message_type' | 'parent_message_id' | 'deleted') =>
    sql.ref(`unresolved_events.${column}`);
  const incoming = (column: 'status' | 'message_type' | 'last_message_id') => sql.ref(`excluded.${column}`);
  const terminal = list(TERMINAL_STATUSES);
  const control = list(CONTROL_REQUEST_TYPES);
  const requestStage = list([MessageType.EventRequest, MessageType.DeferralResponse]);
  const handoff = sql.lit(MessageType.PendingHandoffResponse);
  const finished = list([ResolutionStatus.Completed, ResolutionStatus.Skipped]);
  return eb.or([
    // A removed or archived row counts as absent: the write revives it.
    sql<SqlBool>`${stored('deleted')} <> 0`,
    sql<SqlBool>`${incoming('status')} in (${terminal})`,
    sql<SqlBool>`${incoming('message_type')} = ${sql.lit(MessageType.Unknown)}`,
    sql<SqlBool>`(${incoming('message_type')} in (${requestStage}) and not (
      ${stored('status')} in (${terminal}) or ${stored('message_type')} in (${control})
      or ${stored('message_type')} = ${handoff}))`,
    sql<SqlBool>`(${incoming('message_type')} = ${handoff} and ${stored('status')} not in (${finished}))`,
    sql<SqlBool>`(${incoming('message_type')} in (${control}) and not (
      ${incoming('last_message_id')} is not null and ${incoming('last_message_id')} <> ''
      and ${stored('parent_message_id')} is not null
      and ${stored('parent_message_id')} = ${incoming('last_message_id')}))`,
    sql<SqlBool>`${incoming('message_type')} not in (${requestStage}, ${handoff}, ${control})`,
  ]);
}
