import { initialMigration } from './0001_initial.js';
import { retentionIndexesMigration } from './0002_retention_indexes.js';
import { rowExpiryMigration } from './0003_row_expiry.js';
import { operatorReadsAtScaleMigration } from './0004_operator_reads_at_scale.js';
import { failureSignatureMigration } from './0005_failure_signature.js';
import { statusCountDeltasMigration } from './0006_status_count_deltas.js';
import { failureGroupCoveringIndexMigration } from './0007_failure_group_covering_index.js';
import { heartbeatMissedBeatsMigration } from './0008_heartbeat_missed_beats.js';
import type { Migration } from './migration.js';

/** Every migration the package ships, in the order they apply. Append only; never edit an applied one. */
export const ALL_MIGRATIONS: readonly Migration[] = [
  initialMigration,
  retentionIndexesMigration,
  rowExpiryMigration,
  operatorReadsAtScaleMigration,
  failureSignatureMigration,
  statusCountDeltasMigration,
  failureGroupCoveringIndexMigration,
  heartbeatMissedBeatsMigration,
];
