import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Transport } from '@nimbus/core';
import { expect } from 'vitest';
import { event, topology } from '../fixtures.js';

const CONSUMER = fileURLToPath(new URL('./consumer.ts', import.meta.url));
const SESSIONS = 8;
const PER_SESSION = 25;
const HANG_SESSION = 's3';
const HANG_N = 5;

interface Entry {
  pid: number;
  at: number;
  kind: 'ready' | 'start' | 'finish' | 'hanging' | 'lease' | 'error';
  /** For leases: the holder's lockedUntil, in epoch ms. */
  until?: number;
  /** For errors: the TransportError code, when the consumer records it. */
  code?: string;
  session?: string;
  n?: number;
  deliveryCount?: number;
}

function read(file: string): Entry[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Entry);
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Two consumer processes share one database; the one that gets the hanging message is SIGKILLed mid-handler.
 * Asserts: every message finished, per-session order held, no session handled by two processes at once, and
 * the killed process's session moved to the survivor after its lock expired.
 */
export async function runTwoConsumers(
  transport: Transport,
  env: Record<string, string>,
  recordFiles: [string, string],
  /** The consumer script (run with tsx); other transports' tests give their own. */
  consumer: string = CONSUMER,
): Promise<void> {
  await transport.applyTopology(topology);
  const children: ChildProcess[] = recordFiles.map((file) =>
    spawn(process.execPath, ['--conditions=source', '--import', 'tsx', consumer], {
      env: { ...process.env, ...env, RECORD_FILE: file },
      stdio: ['ignore', 'inherit', 'inherit'],
    }),
  );
  try {
    await until(
      () => recordFiles.every((file) => read(file).some((e) => e.kind === 'ready')),
      // Starting two tsx processes takes seconds, and far longer on a loaded machine; no assertion hangs on it.
      45_000,
      'consumers',
    );
    const messages = [];
    for (let n = 1; n <= PER_SESSION; n++) {
      for (let s = 0; s < SESSIONS; s++) {
        const session = `s${s}`;
        messages.push(event(session, { n, hang: session === HANG_SESSION && n === HANG_N }));
      }
    }
    for (let i = 0; i < messages.length; i += 20) {
      await transport.publish([{ source: 'Crm', messages: messages.slice(i, i + 20) }]);
    }
    const all = () => recordFiles.flatMap(read);
    await until(() => all().some((e) => e.kind === 'hanging'), 20_000, 'the hanging handler');
    const hanging = all().find((e) => e.kind === 'hanging')!;
    const victim = children.find((child) => child.pid === hanging.pid)!;
    victim.kill('SIGKILL');

    const finished = () =>
      new Set(
        all()
          .filter((e) => e.kind === 'finish')
          .map((e) => `${e.session}/${e.n}`),
      );
    await until(() => finished().size === SESSIONS * PER_SESSION, 40_000, 'every message to finish');

    const entries = all();
    const survivorPid = children.find((child) => child !== victim)!.pid;
    const replayed = entries.find(
      (e) => e.kind === 'finish' && e.session === HANG_SESSION && e.n === HANG_N,
    )!;
    expect(replayed.pid).toBe(survivorPid);
    expect(replayed.deliveryCount).toBe(2);
    // The survivor got the session only once the killed holder's lease had run out (the last renewal it saw).
    const leaseEnd = Math.max(
      ...entries.filter((e) => e.kind === 'lease' && e.pid === victim.pid).map((e) => e.until!),
    );
    expect(leaseEnd).toBeGreaterThan(0);
    expect(replayed.at).toBeGreaterThanOrEqual(leaseEnd);
    // Both processes really shared the work (and the killed one was not a bystander).
    const workers = new Set(entries.filter((e) => e.kind === 'finish').map((e) => e.pid));
    expect([...workers].sort()).toEqual([victim.pid, survivorPid].sort());
    // A lost lease is the one error a consumer may see (the session moves on); anything else is a failure.
    const lockLoss = (e: Entry) =>
      e.code === 'SessionLockLost' ||
      e.code === 'MessageLockLost' ||
      String((e as { error?: string }).error).includes('Lock');
    expect(entries.filter((e) => e.kind === 'error' && !lockLoss(e))).toEqual([]);

    for (let s = 0; s < SESSIONS; s++) {
      const session = `s${s}`;
      const finishes = entries
        .filter((e) => e.kind === 'finish' && e.session === session)
        .sort((a, b) => a.at - b.at);
      // In order, each once; a repeat is only a redelivery of what the killed process had in hand.
      const firsts = finishes.filter((e, i) => finishes.findIndex((f) => f.n === e.n) === i);
      expect(firsts.map((e) => e.n)).toEqual(Array.from({ length: PER_SESSION }, (_, i) => i + 1));
      for (const repeat of finishes.filter((e) => !firsts.includes(e))) {
        expect(
          repeat.deliveryCount,
          `${session}/${repeat.n} handled twice without a redelivery`,
        ).toBeGreaterThan(1);
        expect(finishes.find((f) => f.n === repeat.n)!.pid).toBe(victim.pid);
      }
      // One holder at a time: a start by one process never falls inside another process's start..finish.
      const starts = entries.filter((e) => e.kind === 'start' && e.session === session);
      for (const start of starts) {
        const finish = finishes.find((f) => f.pid === start.pid && f.n === start.n);
        if (!finish) continue;
        const overlapping = starts.filter((o) => o.pid !== start.pid && o.at > start.at && o.at < finish.at);
        expect(overlapping, `session ${session} handled by two processes at once`).toEqual([]);
      }
    }
  } finally {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => {
              child.kill('SIGKILL');
              resolve();
            }, 5000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
          }),
      ),
    );
  }
}
