import type { MigrationMode } from '@nimbus/sql';
import {
  type AlertStore,
  createMemoryAlertStore,
  createSqlAlertStore,
  type SmtpSettings,
} from '@nimbus/webapp';
import type { DatabaseTimeouts } from '../commands/timeout-options.js';
import type { NimbusConfig } from '../config.js';
import { CliError } from '../exit-codes.js';
import { webAppDatabase } from './webapp-database.js';

/** Alert state of the WebApp, beside the bulk jobs: the store's PostgreSQL database, or `alerts.db` in the data dir. */
export function openAlertStore(
  config: NimbusConfig,
  timeouts?: DatabaseTimeouts,
  migrationMode?: MigrationMode,
): AlertStore {
  const database = webAppDatabase(config, 'alerts', { timeouts, migrationMode });
  return database === null ? createMemoryAlertStore() : createSqlAlertStore(database);
}

/**
 * SMTP for e-mail alerts, from the environment only (the password never goes through argv):
 * `NIMBUS_SMTP_HOST`, `NIMBUS_SMTP_PORT` (587), `NIMBUS_SMTP_FROM`, `NIMBUS_SMTP_USER`, `NIMBUS_SMTP_PASSWORD`,
 * `NIMBUS_SMTP_SECURE=true` for TLS from the first byte. No host: no e-mail alerts.
 */
export function smtpFromEnv(env: Readonly<Record<string, string | undefined>>): SmtpSettings | undefined {
  const host = env.NIMBUS_SMTP_HOST?.trim();
  if (!host) return undefined;
  const port = Number(env.NIMBUS_SMTP_PORT ?? 587);
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new CliError(`NIMBUS_SMTP_PORT must be a port number (1-65535); got '${env.NIMBUS_SMTP_PORT}'.`);
  const from = env.NIMBUS_SMTP_FROM?.trim();
  if (!from)
    throw new CliError(
      'NIMBUS_SMTP_FROM (the From address of alert e-mails) is needed with NIMBUS_SMTP_HOST.',
    );
  return {
    host,
    port,
    from,
    secure: env.NIMBUS_SMTP_SECURE === 'true',
    ...(env.NIMBUS_SMTP_USER ? { user: env.NIMBUS_SMTP_USER, password: env.NIMBUS_SMTP_PASSWORD ?? '' } : {}),
  };
}
