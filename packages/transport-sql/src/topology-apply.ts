import { diffTopology, RESOLVER_INPUT, type Topology, type TopologyChanges } from '@nimbus/core';
import type { SqlCore } from './sql-core.js';

/** Writes `topology` into `inputs` and `routes` (diffed, so a repeated apply changes and reports nothing). */
export async function applyTopology(core: SqlCore, topology: Topology): Promise<TopologyChanges> {
  core.assertOpen();
  const { db, t } = core;
  const changes = await db.transaction(async (tx) => {
    if (db.dialect === 'postgres') await tx.run(`SELECT pg_advisory_xact_lock(hashtext(?))`, [t.inputs]);
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
    for (const endpoint of diff.removedEndpoints) {
      await tx.run(`DELETE FROM ${t.inputs} WHERE name = ? AND kind = 'endpoint'`, [endpoint]);
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
    return diff;
  });
  core.invalidateTopology();
  core.wakeups.notifyAll();
  return changes;
}
