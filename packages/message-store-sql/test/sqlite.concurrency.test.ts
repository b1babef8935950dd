import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConnectionSettings } from '../src/config/resolve-connection-settings.js';
import { openDialect } from '../src/dialect/open-dialect.js';
import { runMigrations } from '../src/migrations/migrator.js';
import { expectRaceObeyedGuard } from './support/expect-race-obeyed-guard.js';
import { planRace, type RaceOutcome } from './support/guard-race.js';
import { installRaceLog } from './support/race-log.js';

const WRITER = join(dirname(fileURLToPath(import.meta.url)), 'support', 'sqlite-race-writer.ts');
const dir = mkdtempSync(join(tmpdir(), 'nimbus-sql-race-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function startWriter(
  filename: string,
  planFile: string,
): { child: ChildProcess; lines: AsyncIterator<string> } {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', WRITER, filename, planFile, 'race-ep'],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return { child, lines };
}

async function nextLine(lines: AsyncIterator<string>, what: string): Promise<string> {
  const next = await lines.next();
  if (next.done) throw new Error(`writer process ended before sending ${what}`);
  return next.value;
}

describe('SQLite guarded status writes under racing processes', () => {
  it('every committed change obeys the guard against the row it replaced, and no update is lost', {
    timeout: 120_000,
  }, async () => {
    const filename = join(dir, 'race.db');
    const dialect = openDialect(resolveConnectionSettings({ dialect: 'sqlite', filename, env: {} }));
    try {
      await runMigrations(dialect, { mode: 'AutoApply' });
      await installRaceLog(dialect, 'nimbus_unresolved_events');
      const plan = planRace(20261130, 4, 40, 3, 'race');
      const writers = plan.map((writes, i) => {
        const planFile = join(dir, `plan-${i}.json`);
        writeFileSync(planFile, JSON.stringify(writes));
        return startWriter(filename, planFile);
      });
      for (const w of writers) expect(await nextLine(w.lines, 'ready')).toBe('ready');
      for (const w of writers) w.child.stdin!.write('go\n');
      const outcomes: RaceOutcome[] = [];
      for (const w of writers)
        outcomes.push(...(JSON.parse(await nextLine(w.lines, 'its outcomes')) as RaceOutcome[]));

      expect(outcomes).toHaveLength(4 * 40);
      await expectRaceObeyedGuard(outcomes, dialect);
    } finally {
      await dialect.destroy();
    }
  });
});
