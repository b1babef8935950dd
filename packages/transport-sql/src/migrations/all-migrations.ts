import { initialMigration } from './0001_initial.js';
import type { TransportMigration } from './transport-migration.js';

/** Every transport schema migration, in order. Append only: never edit or reorder a released one. */
export const TRANSPORT_MIGRATIONS: readonly TransportMigration[] = [initialMigration];
