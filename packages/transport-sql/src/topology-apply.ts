import {
  RESOLVER_INPUT,
  type RetainedInput,
  replyInputOf,
  type Topology,
  type TopologyChanges,
  type TransportCounts,
} from '@nimbus/core';
import { diffTopology, holdsMessages } from '@nimbus/core/transport-spi';
import type { SqlExecutor } from './sql/database.js';
import type { SqlCore } from './sql-core.js';

/** Writes `topology` into `inputs` and `routes` (diffed, so a repeated apply changes and reports nothing). */
export async function applyTopology(core: SqlCore, topology: Topology): Promise<TopologyChanges> {
  core.lifecycle.assertUsable('applyTopology');
  const { db, t } = core;
  const changes = await db.transaction(async (tx) => {
    await core.dialect.locks.lockTopology(tx, t);
    core.invalidateTopology();
    const endpoints = (await tx.all(`SELECT name FROM ${t.inputs} WHERE kind = 'endpoint'`)).map((r) =>
      String(r.name),
    );
    const routes = (await tx.all(`SELECT source, event_type_id, target FROM ${t.routes}`)).map((r) => ({
      source: String(r.source),
      eventTypeId: String(r.event_type_id),
      target: String(r.target),
    }));
    const diff = diffTopology({ endpoints, routes }, topology);
    await tx.run(
      `INSERT INTO ${t.inputs} (name, kind) VALUES (?, 'resolver') ON CONFLICT (name) DO NOTHING`,
      [RESOLVER_INPUT],
    );
    const retainedInputs: RetainedInput[] = [];
    for (const endpoint of diff.removedEndpoints) {
      await tx.run(`DELETE FROM ${t.inputs} WHERE name = ? AND kind = 'endpoint'`, [endpoint]);
      for (const input of [endpoint, replyInputOf(endpoint)]) {
        const counts = await countRows(tx, core, input);
        if (holdsMessages(counts)) retainedInputs.push({ input, counts });
      }
    }
    for (const endpoint of diff.addedEndpoints) {
      await tx.run(
        `INSERT INTO ${t.inputs} (name, kind) VALUES (?, 'endpoint') ON CONFLICT (name) DO NOTHING`,
        [endpoint],
      );
    }
    for (const route of diff.removedRoutes) {
      await tx.run(`DELETE FROM ${t.routes} WHERE source = ? AND event_type_id = ? AND target = ?`, [
        route.source,
        route.eventTypeId,
        route.target,
      ]);
    }
    for (const route of diff.addedRoutes) {
      await tx.run(
        `INSERT INTO ${t.routes} (source, event_type_id, target) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
        [route.source, route.eventTypeId, route.target],
      );
    }
    return retainedInputs.length > 0 ? { ...diff, retainedInputs } : diff;
  });
  for (const { input, counts } of changes.retainedInputs ?? []) {
    core.logger.warn(
      { input, ...counts },
      'SQL transport: input removed from the topology still holds messages; they are kept (add the endpoint back to reach or purge them)',
    );
  }
  core.invalidateTopology();
  core.wakeups.notifyAll();
  return changes;
}

/** Rows of `input` in each table (scheduled copies count as they are, without promoting them). */
export async function countRows(
  executor: SqlExecutor,
  core: SqlCore,
  input: string,
): Promise<TransportCounts> {
  const { t } = core;
  const [row] = await executor.all(
    `SELECT (SELECT COUNT(*) FROM ${t.messages} WHERE input = ?) AS active,
            (SELECT COUNT(*) FROM ${t.scheduled} WHERE input = ?) AS scheduled,
            (SELECT COUNT(*) FROM ${t.deadLetters} WHERE input = ?) AS dead_lettered,
            (SELECT COUNT(*) FROM ${t.parked} WHERE input = ?) AS parked`,
    [input, input, input, input],
  );
  return {
    active: Number(row?.active ?? 0),
    scheduled: Number(row?.scheduled ?? 0),
    deadLettered: Number(row?.dead_lettered ?? 0),
    parked: Number(row?.parked ?? 0),
  };
}
