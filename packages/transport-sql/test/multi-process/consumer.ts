// A consumer process for the multi-process test on the SQL transports (recording-consumer.ts says what it does).
import { createSqlTransport, type SqlTransportConnection } from '../../src/index.js';
import { requiredEnv, runRecordingConsumer } from './recording-consumer.js';

const connection: SqlTransportConnection =
  requiredEnv('DIALECT') === 'postgres'
    ? {
        dialect: 'postgres',
        connectionString: requiredEnv('DATABASE_URL'),
        schema: requiredEnv('SCHEMA'),
        poolSize: 4,
      }
    : { dialect: 'sqlite', path: requiredEnv('DATABASE_PATH') };
await runRecordingConsumer(
  await createSqlTransport(connection, { lockDurationMs: 2000, pollIntervalMs: 100 }),
);
