/** The SQL engines NimBus runs on: SQLite (one machine) and PostgreSQL (many machines). */
export type SqlDialect = 'sqlite' | 'postgres';

export const SQL_DIALECTS: readonly SqlDialect[] = ['sqlite', 'postgres'];

export function isSqlDialect(value: unknown): value is SqlDialect {
  return value === 'sqlite' || value === 'postgres';
}
