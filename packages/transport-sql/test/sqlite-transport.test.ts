import { afterEach, describe } from 'vitest';
import { describeSqlBehaviour } from './behaviour.js';
import { type SqliteFixture, sqliteFixture } from './fixtures.js';
import { describeIdleSessionCleanup } from './idle-sessions.js';
import { describeSettleGroup } from './settle-group.js';

describe('SQL transport on SQLite', () => {
  let fixture: SqliteFixture | null = null;
  afterEach(async () => {
    await fixture?.cleanup();
    fixture = null;
  });
  describeSqlBehaviour((options) => {
    fixture ??= sqliteFixture();
    return fixture.open(options);
  });
  describeIdleSessionCleanup((options) => {
    fixture ??= sqliteFixture();
    return fixture.open(options);
  });
  describe('group commit across sessions', () =>
    describeSettleGroup((options) => {
      fixture ??= sqliteFixture();
      return fixture.open(options);
    }));
});
