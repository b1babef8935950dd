import type { Command } from 'commander';
import { usageError } from '../exit-codes.js';

/** `--lease-ms` / `--lease-renew-ms` as given (or from the environment). */
export interface LeaseCommandOptions {
  leaseMs?: string;
  leaseRenewMs?: string;
}

/** The session lease of a long-running process: its length and how often it is renewed. */
export interface LeaseSettings {
  readonly lockDurationMs?: number;
  readonly renewalIntervalMs?: number;
}

export const LEASE_HELP = {
  leaseMs:
    'session lease length in ms: how long a crashed or stalled process keeps its sessions (env NIMBUS_LEASE_MS, default 30000)',
  leaseRenewMs:
    'how often the lease is renewed, in ms; below the lease minus its safety margin (env NIMBUS_LEASE_RENEW_MS, default a third of the lease)',
} as const;

export function withLeaseOptions(command: Command): Command {
  return command
    .option('--lease-ms <ms>', LEASE_HELP.leaseMs)
    .option('--lease-renew-ms <ms>', LEASE_HELP.leaseRenewMs);
}

function milliseconds(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < min)
    throw usageError(`${name} must be a whole number of milliseconds >= ${min}; got '${raw}'.`);
  return ms;
}

/** Reads and checks the lease options; the renewal must come well before the lease ends. */
export function leaseFrom(options: LeaseCommandOptions): LeaseSettings {
  const lockDurationMs = milliseconds(
    '--lease-ms (NIMBUS_LEASE_MS)',
    options.leaseMs ?? process.env.NIMBUS_LEASE_MS,
    1_000,
  );
  const renewalIntervalMs = milliseconds(
    '--lease-renew-ms (NIMBUS_LEASE_RENEW_MS)',
    options.leaseRenewMs ?? process.env.NIMBUS_LEASE_RENEW_MS,
    100,
  );
  const lease = lockDurationMs ?? 30_000;
  if (renewalIntervalMs !== undefined && renewalIntervalMs > lease / 2)
    throw usageError(
      `--lease-renew-ms (${renewalIntervalMs}) must be at most half the lease (--lease-ms ${lease}), so that a late renewal still lands before the lease ends.`,
    );
  return {
    ...(lockDurationMs === undefined ? {} : { lockDurationMs }),
    ...(renewalIntervalMs === undefined ? {} : { renewalIntervalMs }),
  };
}
