import { describe, expect, it } from 'vitest';
import { cachingStatements, openSqliteDatabase } from '../src/index.js';

function countedDatabase() {
  const db = openSqliteDatabase(':memory:');
  const prepared: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  }) as typeof db.prepare;
  db.exec('create table t (n integer)');
  return { db, prepared };
}

describe('SQLite statement cache', () => {
  it('prepares each statement text once and reuses it with new parameters', () => {
    const { db, prepared } = countedDatabase();
    const cached = cachingStatements(db);
    for (let n = 0; n < 5; n++) cached.prepare('insert into t (n) values (?)').run([n]);
    expect(cached.prepare('select sum(n) as total from t').all([])).toEqual([{ total: 10 }]);
    expect(prepared).toEqual(['insert into t (n) values (?)', 'select sum(n) as total from t']);
    cached.close();
    expect(db.open).toBe(false);
  });

  it('drops the least recently used text beyond its capacity', () => {
    const { db, prepared } = countedDatabase();
    const cached = cachingStatements(db, 2);
    const a = 'select 1 as v';
    const b = 'select 2 as v';
    const c = 'select 3 as v';
    cached.prepare(a);
    cached.prepare(b);
    cached.prepare(a); // a is now the most recent
    cached.prepare(c); // evicts b
    cached.prepare(a);
    cached.prepare(b);
    expect(prepared).toEqual([a, b, c, b]);
  });

  it('hands out a fresh statement while the cached one is still iterating', () => {
    const { db } = countedDatabase();
    db.exec('insert into t (n) values (1), (2)');
    const cached = cachingStatements(db);
    const text = 'select n from t order by n';
    const outer = cached.prepare(text).iterate([]);
    outer.next();
    const inner = cached.prepare(text);
    expect(inner.all([])).toEqual([{ n: 1 }, { n: 2 }]);
    outer.return?.();
  });

  it('names a capacity that is not a positive integer', () => {
    const { db } = countedDatabase();
    expect(() => cachingStatements(db, 0)).toThrow(/capacity must be a positive integer, got 0/);
  });
});
