import { silentLogger } from '@nimbus/core';
import { StorageProviderTransientError } from '@nimbus/message-store';
import { describe, expect, it } from 'vitest';
import { createPostgresDialect } from '../src/dialect/postgres-dialect.js';
import { createSqlMessageStore } from '../src/index.js';

describe('PostgreSQL transient error translation', () => {
  it('a refused connection at start is a retryable StorageProviderTransientError', async () => {
    const error = await createSqlMessageStore({
      dialect: 'postgres',
      connectionString: 'postgres://postgres@127.0.0.1:1/nimbus',
      retentionSweep: false,
      logger: silentLogger,
      env: {},
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageProviderTransientError);
    expect(error).toMatchObject({
      isRetryable: true,
      message: 'The PostgreSQL message store is temporarily unavailable.',
    });
  });

  it('classifies connection loss, lock and serialization failures as transient, and nothing else', async () => {
    const dialect = createPostgresDialect({
      connectionString: 'postgres://u@127.0.0.1:1/x',
      schema: 'nimbus',
      poolSize: 1,
    });
    try {
      for (const code of [
        '08006',
        '08003',
        '40001',
        '40P01',
        '55P03',
        '57P01',
        '57014',
        '53300',
        'ECONNRESET',
      ]) {
        expect(dialect.isRetryable(Object.assign(new Error('x'), { code })), code).toBe(true);
      }
      expect(dialect.isRetryable(new Error('Connection terminated unexpectedly'))).toBe(true);
      for (const code of ['23505', '42P01', '22P02', undefined]) {
        expect(dialect.isRetryable(Object.assign(new Error('x'), { code })), String(code)).toBe(false);
      }
    } finally {
      await dialect.destroy();
    }
  });
});
