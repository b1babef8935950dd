/*
 * One racing writer process for the SQLite concurrency test: opens its own store on the shared file,
 * says "ready", waits for "go" on stdin, runs its writes back to back and prints the outcomes as JSON.
 */
import { readFileSync } from 'node:fs';
import { silentLogger } from '@nimbus/core';
import { createSqlMessageStore } from '../../src/index.js';
import { type RaceOutcome, type RaceWrite, uploadFor } from './guard-race.js';

const [filename, planFile, endpointId] = process.argv.slice(2) as [string, string, string];
const writes = JSON.parse(readFileSync(planFile, 'utf8')) as RaceWrite[];
const store = await createSqlMessageStore({
  dialect: 'sqlite',
  filename,
  migrationMode: 'VerifyOnly',
  retentionSweep: false,
  busyTimeoutMs: 20_000,
  logger: silentLogger,
  env: {},
});
process.stdout.write('ready\n');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
const outcomes: RaceOutcome[] = [];
for (const write of writes) outcomes.push({ ...write, written: await uploadFor(store, write, endpointId) });
await store.close();
process.stdout.write(`${JSON.stringify(outcomes)}\n`);
process.exit(0);
