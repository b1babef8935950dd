import { isNimBusError, NimBusError, NimBusErrorCode } from '@nimbus/core';

/** `AutoApply` runs pending migrations at start; `VerifyOnly` never runs DDL and refuses a schema that is behind. */
export type MigrationMode = 'AutoApply' | 'VerifyOnly';

export const MIGRATION_MODES: readonly MigrationMode[] = ['AutoApply', 'VerifyOnly'];

/** One numbered schema change, applied once in name order and recorded in the journal. */
export interface NamedMigration<Tx> {
  /** `NNNN_description`; the journal key. */
  readonly name: string;
  up(tx: Tx): Promise<void>;
}

/** Reported once before and once after each migration that is applied. */
export interface MigrationProgress {
  readonly migration: string;
  readonly step: 'applying' | 'applied';
  /** 1-based position among the migrations applied in this run. */
  readonly index: number;
  readonly total: number;
}

export interface MigrationRunResult {
  /** Migrations applied by this run (empty when the schema was already current, or in VerifyOnly). */
  readonly applied: readonly string[];
  /** Migrations the journal already listed. */
  readonly alreadyApplied: readonly string[];
}

/** Where a schema's journal lives and how to lock it: what differs per engine and per package. */
export interface MigrationJournal<Tx> {
  /** What is migrated and where, for errors: e.g. `transport schema "nimbus_transport"`. */
  readonly placement: string;
  /** Names in the journal, or null when the journal table does not exist. Read-only: never runs DDL. */
  readApplied(tx?: Tx): Promise<ReadonlySet<string> | null>;
  /**
   * Runs `work` in one transaction that holds the migration lock (an advisory lock on PostgreSQL, the write lock
   * on SQLite), so concurrent starters apply each migration exactly once.
   */
  locked<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Creates the namespace and the journal table (inside `locked`). */
  createJournal(tx: Tx): Promise<void>;
  record(tx: Tx, name: string, appliedAt: number): Promise<void>;
}

export interface RunMigrationsOptions<Tx> {
  readonly mode: MigrationMode;
  readonly migrations: readonly NamedMigration<Tx>[];
  readonly onProgress?: (progress: MigrationProgress) => void;
  readonly now?: () => number;
}

/**
 * `VerifyOnly` found migrations that were never applied; `unapplied` lists every one of them and `placement` says
 * which tables (the one class for every schema NimBus versions: store, transport, WebApp, outbox, inbox).
 */
export class SchemaOutOfDateError extends NimBusError<typeof NimBusErrorCode.SchemaOutOfDate> {
  constructor(
    readonly placement: string,
    readonly unapplied: readonly string[],
  ) {
    super(
      NimBusErrorCode.SchemaOutOfDate,
      `The ${placement} is out of date: ${unapplied.length} unapplied migration(s): ${unapplied.join(', ')}. ` +
        `migrationMode 'VerifyOnly' never changes the schema; apply them with migrationMode 'AutoApply' (or the ` +
        `CLI's migrate command, for example from the deployment pipeline) and start again.`,
    );
    this.name = 'SchemaOutOfDateError';
  }
}

/** By code and shape, not `instanceof` (another copy of the package may have thrown it). */
export function isSchemaOutOfDate(error: unknown): error is SchemaOutOfDateError {
  return (
    isNimBusError(error, NimBusErrorCode.SchemaOutOfDate) &&
    Array.isArray((error as Partial<SchemaOutOfDateError>).unapplied)
  );
}

/**
 * The one migration mechanism. A current schema costs one read of the journal and no DDL and no lock in either
 * mode (DDL takes locks that deadlock live traffic). AutoApply takes the lock only when something is pending,
 * re-reads the journal under it, and applies the rest in one transaction.
 */
export async function runMigrations<Tx>(
  journal: MigrationJournal<Tx>,
  options: RunMigrationsOptions<Tx>,
): Promise<MigrationRunResult> {
  const { migrations } = options;
  if (options.mode !== 'AutoApply' && options.mode !== 'VerifyOnly') {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `Invalid option 'migrationMode': '${String(options.mode)}'. Expected 'AutoApply' or 'VerifyOnly'.`,
    );
  }
  assertOrdered(migrations);
  const seen = (await journal.readApplied()) ?? new Set<string>();
  const pendingNow = migrations.filter((m) => !seen.has(m.name));
  if (pendingNow.length === 0) return { applied: [], alreadyApplied: migrations.map((m) => m.name) };
  if (options.mode === 'VerifyOnly') {
    throw new SchemaOutOfDateError(
      journal.placement,
      pendingNow.map((m) => m.name),
    );
  }
  const now = options.now ?? Date.now;
  return journal.locked(async (tx) => {
    await journal.createJournal(tx);
    const done = (await journal.readApplied(tx)) ?? new Set<string>();
    const pending = migrations.filter((m) => !done.has(m.name));
    const applied: string[] = [];
    for (const [i, migration] of pending.entries()) {
      const position = { migration: migration.name, index: i + 1, total: pending.length };
      options.onProgress?.({ ...position, step: 'applying' });
      await migration.up(tx);
      await journal.record(tx, migration.name, now());
      applied.push(migration.name);
      options.onProgress?.({ ...position, step: 'applied' });
    }
    return { applied, alreadyApplied: migrations.filter((m) => done.has(m.name)).map((m) => m.name) };
  });
}

function assertOrdered(migrations: readonly NamedMigration<unknown>[]): void {
  const names = migrations.map((m) => m.name);
  const sorted = [...names].sort();
  if (names.some((name, i) => name !== sorted[i]) || new Set(names).size !== names.length) {
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      `Migrations must have unique names in ascending order, got: ${names.join(', ')}`,
    );
  }
}
