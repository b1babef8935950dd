import pg from 'pg';
import { nimbusThroughput } from './nimbus-runs.js';
const counts = new Map<string, number>();
let on = false;
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
  const a = args[0];
  const text = typeof a === 'string' ? a : String((a as { text?: string })?.text ?? '');
  const key = text.replace(/\s+/g, ' ').replace(/"[a-z_]+"\./g, '').slice(0, 90);
  if (on) counts.set(key, (counts.get(key) ?? 0) + 1);
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;
const N = Number(process.env.N ?? 3000);
const work = { events: N, sessions: Number(process.env.S ?? 100), body: 'x'.repeat(1024) };
on = true;
const r = await nimbusThroughput('postgres', work, process.env.TRACK === '1', {});
console.log('ev/s', r.eventsPerSecond);
for (const [k, v] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / N).toFixed(3), k);
