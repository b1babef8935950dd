import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startOwnPostgresCluster } from '@nimbus/testing/postgres-cluster';
import { createSqlTransport, type SqlTransport } from '@nimbus/transport-sql';
import { type CheckResult, check, type ProcessFault, type StoreRow } from './checker.js';
import { eventually } from './harness/eventually.js';
import { readHandlerLog } from './harness/handler-log.js';
import type { ManagedProcess } from './harness/managed-process.js';
import { runCliOnce } from './harness/run-cli.js';
import { ServerLog } from './harness/server-log.js';
import { RESOLVER_LEASE_MS, Stack, type TrackingShape } from './harness/stack.js';
import { WebAppClient } from './harness/webapp-client.js';
import { WriteAudit } from './harness/write-audit.js';
import { ChaosOperator, type OperatorFigures } from './operator.js';
import { type PlannedEvent, planWorkload, random } from './workload.js';

export interface ScenarioOptions {
  readonly dialect: 'postgres' | 'sqlite';
  /** Co-located: every process records store rows in its own transactions; Resolver: the Resolver alone does. */
  readonly tracking: TrackingShape;
  readonly workDir: string;
  /** Own cluster port (PostgreSQL) and WebApp port. */
  readonly pgPort: number;
  readonly webappPort: number;
  /** How long traffic and kills go on. */
  readonly chaosMs: number;
  readonly sessions: number;
  readonly eventsPerSession: number;
  readonly seed: number;
  /** How long the suite waits for everything to settle after the chaos. */
  readonly settleMs: number;
  /**
   * PostgreSQL, Resolver shape: share of the Resolver's history inserts failed with a retryable error (see
   * WriteAudit). Co-located, history is inserted by the bus's own settlements, which the injection would fail.
   */
  readonly storeFailureRate: number;
  readonly log: (line: string) => void;
}

export interface ScenarioResult extends CheckResult {
  readonly dialect: string;
  readonly tracking: TrackingShape;
  readonly kills: Record<string, number>;
  /** Stalls (SIGSTOP past the victim's lease, then SIGCONT) per process. */
  readonly stalls: Record<string, number>;
  /** Settlements a process reported refused because its lease lapsed while it was slow (nobody stalled it). */
  readonly leaseLapses: number;
  readonly databaseRestarts: number;
  readonly injectedStoreFailures: number;
  readonly lateDuplicates: number;
  readonly operator: OperatorFigures;
  readonly refusals: Record<string, number>;
  readonly settledInMs: number | null;
  readonly durationMs: number;
}

const VICTIMS = ['host-1', 'host-2', 'resolver', 'webapp'];

/** Processes the stall fault pauses, with their session lease (hosts: backend.mjs; Resolver: stack.ts). */
const STALL_VICTIMS: Record<string, number> = {
  'host-1': 5_000,
  'host-2': 5_000,
  resolver: RESOLVER_LEASE_MS,
};

/**
 * host-2 receives batches of 8 (settled in one statement): a stall then leaves messages in hand to fence, and one
 * settlement appends several Resolver copies of one session at once.
 */
const HOST_TUNING: Record<string, Record<string, string>> = { 'host-2': { RECEIVE_BATCH_SIZE: '8' } };

/** Share of the faults that are stalls instead of kills. */
const STALL_SHARE = 0.3;

/** One run of the chaos suite on one backend: start everything, break things, settle, check. */
export async function runScenario(options: ScenarioOptions): Promise<ScenarioResult> {
  const started = Date.now();
  const rand = random(options.seed);
  const { log } = options;
  const cluster =
    options.dialect === 'postgres'
      ? await startOwnPostgresCluster({ port: options.pgPort, settings: { log_statement: 'ddl' } })
      : null;
  const url = cluster ? await cluster.createDatabase('nimbus') : null;
  const stack = new Stack({
    backend: url ? { dialect: 'postgres', url } : { dialect: 'sqlite' },
    tracking: options.tracking,
    workDir: options.workDir,
    webappPort: options.webappPort,
  });
  let transport: SqlTransport | null = null;
  try {
    const migrate = await runCliOnce(['store', 'migrate'], stack.cliEnv());
    if (migrate.code !== 0)
      throw new Error(`nimbus store migrate failed: ${migrate.stdout}${migrate.stderr}`);
    // Installed before the server log is read from: the suite's own DDL is not the product's.
    const audit = new WriteAudit(
      url
        ? { dialect: 'postgres', url }
        : { dialect: 'sqlite', dataDir: stack.dataDir, colocated: options.tracking === 'colocated' },
      options.tracking === 'resolver' ? options.storeFailureRate : 0,
    );
    await audit.install();
    const serverLog = cluster ? new ServerLog(join(cluster.dataDir, 'server.log')) : null;
    const ready = (p: ManagedProcess, pattern: RegExp) => p.start().waitFor(pattern, 60_000);
    await ready(stack.resolver(), /NimBus resolver ready/);
    await ready(stack.webapp(), /NimBus webapp ready/);
    await Promise.all(
      VICTIMS.filter((v) => v.startsWith('host')).map((name) =>
        ready(stack.host(name, HOST_TUNING[name]), /ready/),
      ),
    );
    const publisher = stack.publisher();
    await ready(publisher, /publisher ready/);
    const client = new WebAppClient(stack.webappUrl, 'admin@local', stack.adminPassword);
    await client.signIn();
    log(`${options.dialect}: stack up in ${Date.now() - started} ms; chaos for ${options.chaosMs} ms`);

    const plan = planWorkload(rand, options.sessions, options.eventsPerSession, options.dialect);
    const firstRunOf = (eventId: string) =>
      readHandlerLog(stack.handlerLog).find((r) => r.eventId === eventId);
    const lastRunOf = (eventId: string) =>
      readHandlerLog(stack.handlerLog).findLast((r) => r.eventId === eventId);
    const operator = new ChaosOperator(client, rand, firstRunOf, lastRunOf);
    const kills: Record<string, number> = {};
    const stalls: Record<string, number> = {};
    const killed: ProcessFault[] = [];
    const stalled: ProcessFault[] = [];
    let databaseRestarts = 0;
    const databaseOutages: number[] = [];
    let lateDuplicates = 0;
    let sent = 0;
    const chaosEnd = Date.now() + options.chaosMs;
    const gap = Math.max(5, Math.floor(options.chaosMs / (plan.length * 1.5)));

    const publishing = (async () => {
      for (const [index, event] of plan.entries()) {
        publisher.send(JSON.stringify(event));
        sent += 1;
        if (rand() < 0.03 && index > 10) {
          // A late duplicate: the same message (same id) of an event published a while ago. (Picked by plan
          // position, not by messages sent: counting the duplicates too could pick an event not published yet.)
          const earlier = plan[Math.floor(rand() * (index - 5))]!;
          publisher.send(JSON.stringify(earlier));
          sent += 1;
          lateDuplicates += 1;
        }
        await sleep(gap);
      }
    })();
    const chaos = (async () => {
      const restartAt = Date.now() + options.chaosMs / 2;
      let restarted = false;
      let faults = 0;
      while (Date.now() < chaosEnd) {
        await sleep(2000 + rand() * 4000);
        if (cluster && !restarted && Date.now() > restartAt) {
          restarted = true;
          log(`${options.dialect}: restarting the database`);
          databaseOutages.push(Date.now());
          await cluster.restart(1000 + rand() * 2000);
          databaseRestarts += 1;
          continue;
        }
        // The first fault is always a stall (so the short form has one), then 30 % of them.
        if (faults++ === 0 || rand() < STALL_SHARE) {
          // A stall: the process is paused past its lease (a GC pause, a VM stall, CPU starvation), then goes on.
          const names = Object.keys(STALL_VICTIMS);
          const victim = stack.processes.get(names[Math.floor(rand() * names.length)]!)!;
          const pauseMs = STALL_VICTIMS[victim.name]! + 1_000 + rand() * 3_000;
          stalled.push({ pid: victim.pid ?? -1, at: Date.now() });
          log(`${options.dialect}: stalling ${victim.name} for ${Math.round(pauseMs)} ms`);
          victim.pause();
          await sleep(pauseMs);
          victim.resume();
          stalls[victim.name] = (stalls[victim.name] ?? 0) + 1;
          continue;
        }
        const victim = stack.processes.get(VICTIMS[Math.floor(rand() * VICTIMS.length)]!)!;
        killed.push({ pid: victim.pid ?? -1, at: Date.now() });
        await victim.kill('SIGKILL');
        kills[victim.name] = (kills[victim.name] ?? 0) + 1;
        await sleep(300 + rand() * 1500);
        await victim.start().waitFor(/ready/, 60_000);
      }
    })();
    const operating = (async () => {
      while (Date.now() < chaosEnd) {
        await operator.pass();
        await sleep(500 + rand() * 1000);
      }
    })();
    await Promise.all([publishing, chaos, operating]);
    await eventually(
      () => ((publisher.output.match(/^published /gm)?.length ?? 0) >= sent ? true : undefined),
      60_000,
      'the publisher to confirm every publish',
    );

    // The suite's own view of the transport is opened only now, after the database restart: what must ride out
    // the restart are the product's processes, whose deaths the checker reports.
    transport = await createSqlTransport(
      url
        ? { dialect: 'postgres', connectionString: url, poolSize: 2 }
        : { dialect: 'sqlite', path: join(stack.dataDir, 'transport.db') },
      { migrationMode: 'VerifyOnly', idleSessionSweepMs: 0, logger: quietLogger },
    );
    // Settle: the operator keeps resolving blocks until nothing is blocked, in flight or parked.
    const settleStart = Date.now();
    let settledInMs: number | null = null;
    while (Date.now() - settleStart < options.settleMs) {
      const blocked = await operator.pass();
      const counts = await leftovers(transport);
      if (blocked === 0 && counts.every((c) => c.active + c.scheduled + c.parked === 0)) {
        settledInMs = Date.now() - settleStart;
        break;
      }
      await sleep(1000);
    }
    // The Resolver projects asynchronously: give the store a moment to catch up with the bus.
    await sleep(3000);
    const rows = await storeRows(client);
    const result = check({
      published: plan,
      runs: readHandlerLog(stack.handlerLog),
      rows,
      leftovers: await leftovers(transport),
      unexpectedExits: stack.unexpectedExits(),
      declaredOutOfOrder: operator.declaredOutOfOrder,
      databaseProblems: serverLog?.problems() ?? [],
      internalErrors: operator.internalErrors,
      databaseOutages,
      kills: killed,
      stalls: [...stalled, ...stack.leaseLapses()],
      writes: await audit.writes(),
    });
    return {
      ...result,
      dialect: options.dialect,
      tracking: options.tracking,
      kills,
      stalls,
      leaseLapses: stack.leaseLapses().length,
      databaseRestarts,
      injectedStoreFailures: await audit.injectedFailures(),
      lateDuplicates,
      operator: operator.figures,
      refusals: Object.fromEntries(operator.refusals),
      settledInMs,
      durationMs: Date.now() - started,
    };
  } finally {
    await transport?.close().catch(() => undefined);
    await stack.stopAll();
    await cluster?.destroy();
  }
}

async function leftovers(transport: SqlTransport) {
  const inputs = ['Warehouse', 'Resolver'];
  return Promise.all(
    inputs.map(async (input) => {
      const counts = await transport.counts(input);
      const letters = await transport.peekDeadLetters(input, 10_000);
      return {
        otherDeadLetters: letters.filter((l) => !l.reason.startsWith('Permanent failure:')).length,
        input,
        active: counts.active,
        scheduled: counts.scheduled,
        parked: counts.parked,
        deadLettered: counts.deadLettered,
      };
    }),
  );
}

async function storeRows(client: WebAppClient): Promise<StoreRow[]> {
  const rows: StoreRow[] = [];
  let token: string | null = null;
  do {
    const query: string = `pageSize=200${token ? `&continuationToken=${encodeURIComponent(token)}` : ''}`;
    const page: { status: number; body: { events: StoreRow[]; continuationToken: string | null } } =
      await client.call('GET', `/api/endpoints/Warehouse/events?${query}`);
    if (page.status !== 200) throw new Error(`reading the store through the WebApp: HTTP ${page.status}`);
    rows.push(
      ...page.body.events.map((e) => ({ eventId: e.eventId, sessionId: e.sessionId, status: e.status })),
    );
    token = page.body.continuationToken;
  } while (token);
  return rows;
}

const quietLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export type { PlannedEvent };
