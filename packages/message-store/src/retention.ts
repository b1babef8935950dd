import { InvalidStoreOptionError } from './errors.js';

const SECOND = 1000;
const DAY = 86_400 * SECOND;

/**
 * Fixed retention of everything except unresolved rows. Measured from the row's last write;
 * `sweepExpired` deletes what is past it. Expiry deletes the whole row, metadata included.
 */
export const FIXED_RETENTION_MS = Object.freeze({
  /** Completed / Skipped rows. */
  terminalRows: 30 * DAY,
  /** Rows removed with `removeMessage` / `purgeMessages`. */
  softDeletedRows: 60 * SECOND,
  /** Rows taken out of the live views with `archiveFailedEvent`. */
  archivedFailedRows: 30 * DAY,
  /** Per-message history records. */
  messages: 90 * DAY,
  /** Audit rows. */
  audits: 365 * DAY,
});

/** -1 keeps unresolved rows forever (the default). */
export const UNLIMITED_RETENTION = -1;
export const MAX_UNRESOLVED_RETENTION_DAYS = 365;
export const UNRESOLVED_RETENTION_ENV = 'NIMBUS_STORE_UNRESOLVED_RETENTION_DAYS';

export interface RetentionOptions {
  /** -1 (unlimited, default) or 1–365 whole days; applies to Pending/Deferred/Failed/DeadLettered/Unsupported rows. */
  readonly unresolvedRetentionDays: number;
}

export const DEFAULT_RETENTION: RetentionOptions = Object.freeze({
  unresolvedRetentionDays: UNLIMITED_RETENTION,
});

export interface RetentionOptionSources {
  /** Environment to read `NIMBUS_STORE_UNRESOLVED_RETENTION_DAYS` from (default: none). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Values set in code; applied after the environment and therefore win. */
  readonly options?: Partial<RetentionOptions>;
}

/** Resolves retention from the environment then code options. Invalid values throw, naming option and value. */
export function parseRetentionOptions(sources: RetentionOptionSources = {}): RetentionOptions {
  let days: number = UNLIMITED_RETENTION;
  const raw = sources.env?.[UNRESOLVED_RETENTION_ENV];
  if (raw !== undefined && raw.trim() !== '') {
    const trimmed = raw.trim();
    if (!/^-?\d+$/.test(trimmed))
      throw invalidRetention(raw, `environment variable ${UNRESOLVED_RETENTION_ENV}`);
    days = checkRetentionDays(Number(trimmed), `environment variable ${UNRESOLVED_RETENTION_ENV}`, raw);
  }
  const fromCode = sources.options?.unresolvedRetentionDays;
  if (fromCode !== undefined) days = checkRetentionDays(fromCode, 'code options', fromCode);
  return { unresolvedRetentionDays: days };
}

function checkRetentionDays(days: number, source: string, shown: unknown): number {
  const valid =
    Number.isInteger(days) &&
    (days === UNLIMITED_RETENTION || (days >= 1 && days <= MAX_UNRESOLVED_RETENTION_DAYS));
  if (!valid) throw invalidRetention(shown, source);
  return days;
}

function invalidRetention(value: unknown, source: string): InvalidStoreOptionError {
  return new InvalidStoreOptionError(
    'unresolvedRetentionDays',
    value,
    `Invalid unresolvedRetentionDays ${typeof value === 'number' ? String(value) : JSON.stringify(value)} (from ${source}): ` +
      `use -1 for unlimited or a whole number of days from 1 to ${MAX_UNRESOLVED_RETENTION_DAYS}.`,
  );
}

/** Retention window of an unresolved row in ms, or null when unlimited. */
export function unresolvedRetentionMs(options: RetentionOptions): number | null {
  return options.unresolvedRetentionDays === UNLIMITED_RETENTION
    ? null
    : options.unresolvedRetentionDays * DAY;
}

/** What one sweep deleted, per class of data. */
export interface RetentionSweepResult {
  readonly unresolvedRows: number;
  readonly terminalRows: number;
  readonly softDeletedRows: number;
  readonly archivedRows: number;
  readonly messages: number;
  readonly audits: number;
}
