// The chaos suite (acceptance of issue #12): `npm run chaos` (short form, ~3 minutes, run by .ci/run);
// `npm run chaos -- --long` (10 minutes of chaos per backend); `--only postgres|sqlite`; `--tracking` picks the
// store shape: `colocated` or `resolver` on every backend, `both` (each backend in each shape), default
// `alternate` (PostgreSQL in the Resolver shape, where store failures are injected under the Resolver, SQLite
// co-located, the CLI's default); seed with NIMBUS_CHAOS_SEED to repeat a run. Prints the figures and writes them
// to reports/chaos.json; exits 1 on any violation.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runScenario, type ScenarioResult } from './scenario.js';

const { values } = parseArgs({
  options: {
    long: { type: 'boolean', default: false },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
    tracking: { type: 'string', default: 'alternate' },
  },
});
const SHAPES = ['colocated', 'resolver', 'both', 'alternate'];
if (!SHAPES.includes(values.tracking))
  throw new Error(`--tracking must be one of ${SHAPES.join(', ')}; got '${values.tracking}'`);
if (values.only !== undefined && values.only !== 'postgres' && values.only !== 'sqlite')
  throw new Error(`--only must be postgres or sqlite; got '${values.only}'`);
const seed = Number(process.env.NIMBUS_CHAOS_SEED ?? Date.now() % 1_000_000);
const dialects = (values.only ? [values.only] : ['postgres', 'sqlite']) as ('postgres' | 'sqlite')[];
const shapesOf = (dialect: 'postgres' | 'sqlite'): ('colocated' | 'resolver')[] => {
  if (values.tracking === 'both') return ['colocated', 'resolver'];
  if (values.tracking === 'alternate') return [dialect === 'postgres' ? 'resolver' : 'colocated'];
  return [values.tracking as 'colocated' | 'resolver'];
};
const runs = dialects.flatMap((dialect) => shapesOf(dialect).map((tracking) => ({ dialect, tracking })));
const log = (line: string) => console.log(`[chaos ${new Date().toISOString().slice(11, 19)}] ${line}`);

const results: ScenarioResult[] = [];
for (const [i, { dialect, tracking }] of runs.entries()) {
  const workDir = mkdtempSync(join(tmpdir(), `nimbus-chaos-${dialect}-`));
  log(`${dialect}: ${tracking} shape, seed ${seed + i}, work dir ${workDir}`);
  try {
    const result = await runScenario({
      dialect,
      tracking,
      workDir,
      pgPort: await freePort(),
      webappPort: await freePort(),
      chaosMs: values.long ? 600_000 : dialect === 'postgres' ? 50_000 : 35_000,
      sessions: values.long ? 40 : 12,
      eventsPerSession: values.long ? 150 : dialect === 'postgres' ? 14 : 10,
      seed: seed + i,
      settleMs: values.long ? 180_000 : 60_000,
      storeFailureRate: 0.03,
      log,
    });
    results.push(result);
    print(result);
    const failed = Object.values(result.violations).some((list) => list.length > 0);
    if (!failed && !values.keep) rmSync(workDir, { recursive: true, force: true });
    else log(`${dialect}: logs kept in ${workDir}`);
  } catch (error) {
    log(`${dialect}: the suite itself failed: ${(error as Error).stack ?? error}`);
    log(`${dialect}: logs kept in ${workDir}`);
    process.exitCode = 1;
  }
}

mkdirSync('reports', { recursive: true });
writeFileSync(join('reports', 'chaos.json'), `${JSON.stringify({ seed, results }, null, 2)}\n`);
const violations = results.reduce(
  (sum, r) => sum + Object.values(r.violations).reduce((s, list) => s + list.length, 0),
  0,
);
if (violations > 0 || results.length < runs.length) process.exitCode = 1;
log(
  `${violations === 0 && results.length === runs.length ? 'PASSED' : 'FAILED'}: ${violations} violation(s) over ${results.length}/${runs.length} run(s) (${runs.map((r) => `${r.dialect} ${r.tracking}`).join(', ')}; seed ${seed})`,
);

/** A port nothing listens on now (the machine is shared: no fixed ports). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function print(r: ScenarioResult): void {
  const v = r.violations;
  log(
    `${r.dialect} (${r.tracking}): ${r.figures.published} events published (${r.figures.transientEvents} transient, ${r.figures.blockingEvents} blocking, ${r.figures.permanentEvents} permanent), retryable failures after a resubmit ${r.figures.retryableFailures}, ${r.lateDuplicates} late duplicates; ` +
      `kills ${JSON.stringify(r.kills)}, stalls past the lease ${JSON.stringify(r.stalls)}, leases lapsed under load ${r.leaseLapses}, database restarts ${r.databaseRestarts}, injected store failures ${r.injectedStoreFailures}; operator ${JSON.stringify(r.operator)}`,
  );
  log(
    `${r.dialect}: declared out-of-order runs: ${r.figures.declaredOutOfOrderRuns} (of ${r.figures.declaredOutOfOrderEvents} events resubmitted with the operator's out-of-order acknowledgement; not counted as reorders)`,
  );
  log(
    `${r.dialect}: handler runs ${r.figures.handlerRuns}, handled ${r.figures.handled}, skipped ${r.figures.skippedByOperator}, duplicate runs ${r.figures.duplicateRuns} (runs of an event that had succeeded before), duplicate successes ${r.figures.duplicateSuccesses} (late duplicates handled again ${r.figures.duplicatesHandledAgain}), store rows ${r.figures.storeRows}, audited writes ${r.figures.historyWritesAudited} history (${r.figures.historyWritesUnmatched} unmatched) / ${r.figures.statusWritesAudited} status; settled ${r.settledInMs === null ? 'NOT within the limit' : `in ${r.settledInMs} ms`}; run ${Math.round(r.durationMs / 1000)} s`,
  );
  log(
    `${r.dialect}: lost ${v.lost.length}, reordered ${v.reordered.length}, skipped-but-handled ${v.skippedHandled.length}, stale rows ${v.staleRows.length}, leftovers ${v.leftovers.length}, processes died ${v.died.length}, not retried ${v.notRetried.length}, database problems ${v.database.length}, overtaken ${v.overtaken.length}, reopened ${v.reopened.length}, internal errors ${v.internalErrors.length}`,
  );
  for (const [why, count] of Object.entries(r.refusals)) log(`  refused ${count}x: ${why}`);
  for (const [name, list] of Object.entries(v))
    for (const line of list.slice(0, 8)) log(`  ${name}: ${line}`);
}
