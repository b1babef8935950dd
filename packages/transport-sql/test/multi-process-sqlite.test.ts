import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { sqliteFixture } from './fixtures.js';
import { runTwoConsumers } from './multi-process/run-consumers.js';

describe('SQL transport on SQLite across processes', () => {
  const fixture = sqliteFixture();
  afterAll(() => fixture.cleanup());

  it('two consumer processes share one file; a SIGKILLed consumer loses nothing', {
    timeout: 60_000,
  }, async () => {
    const transport = await fixture.open();
    await runTwoConsumers(transport, { DIALECT: 'sqlite', DATABASE_PATH: fixture.path }, [
      join(fixture.dir, 'a.jsonl'),
      join(fixture.dir, 'b.jsonl'),
    ]);
  });
});
