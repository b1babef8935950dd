import { initialMigration } from './0001_initial.js';
import { inputControlMigration } from './0002_input_control.js';
import type { TransportMigration } from './transport-migration.js';

/** Every transport schema migration, in order. Append only: never edit or reorder a released one. */
export const TRANSPORT_MIGRATIONS: readonly TransportMigration[] = [initialMigration, inputControlMigration];
