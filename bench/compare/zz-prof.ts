import { nimbusThroughput } from './nimbus-runs.js';
import { countStatements } from './stats.js';
countStatements();
const work = { events: Number(process.env.N ?? 5000), sessions: 100, body: 'x'.repeat(1024) };
const dialect = (process.env.DIALECT ?? 'postgres') as 'postgres' | 'sqlite';
const r = await nimbusThroughput(dialect, work, process.env.TRACK === '1', {});
console.log(dialect, r.eventsPerSecond, r.statements);
