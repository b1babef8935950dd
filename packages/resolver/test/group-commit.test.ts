import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import type { StatusWrite, TrackingBatch, TrackingBatchResult } from '@nimbus/message-store';
import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../src/group-commit.js';

/** A batch of one session: `n` history records and `n` status writes, the status row's event id tagged. */
function batchOf(session: string, n: number): TrackingBatch {
  const ids = Array.from({ length: n }, (_, i) => `${session}-${i}`);
  return {
    messages: ids.map((eventId) => ({ eventId }) as never),
    statuses: ids.map(
      (eventId): StatusWrite => ({
        key: { endpointId: 'Erp', eventId, sessionId: session },
        status: 'Completed' as never,
        content: {} as never,
      }),
    ),
  };
}

/** A store write that answers per row (refusing rows whose event id ends in -stale) and records each call. */
function recordingStore(fail?: (batch: TrackingBatch) => Error | undefined) {
  const calls: TrackingBatch[] = [];
  let release: (() => void) | undefined;
  const write = async (batch: TrackingBatch): Promise<TrackingBatchResult> => {
    calls.push(batch);
    if (calls.length === 1) await new Promise<void>((resolve) => (release = resolve));
    const error = fail?.(batch);
    if (error) throw error;
    return {
      messagesStored: (batch.messages ?? []).map(() => true),
      statusesWritten: (batch.statuses ?? []).map((s) => !s.key.eventId.endsWith('-stale')),
    };
  };
  return { calls, write, releaseFirst: () => release?.() };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Resolver group commit', () => {
  it('writes at once when idle, then merges the batches that arrived during a write into one write', async () => {
    const store = recordingStore();
    const commit = new GroupCommit(store.write);
    const first = commit.write(batchOf('s0', 1));
    await settle();
    const rest = ['s1', 's2', 's3'].map((s) => commit.write(batchOf(s, 2)));
    await settle();
    expect(store.calls).toHaveLength(1);
    store.releaseFirst();
    const results = await Promise.all([first, ...rest]);
    expect(store.calls).toHaveLength(2);
    expect(store.calls[1]!.statuses!.map((s) => s.key.sessionId)).toEqual([
      's1',
      's1',
      's2',
      's2',
      's3',
      's3',
    ]);
    expect(results.map((r) => r.statusesWritten.length)).toEqual([1, 2, 2, 2]);
  });

  it('gives each caller the results of its own rows: a refused row refuses nothing else', async () => {
    const store = recordingStore();
    const commit = new GroupCommit(store.write);
    const first = commit.write(batchOf('s0', 1));
    await settle();
    const stale: TrackingBatch = {
      messages: [{ eventId: 'x' } as never],
      statuses: [
        {
          ...batchOf('s1', 1).statuses![0]!,
          key: { endpointId: 'Erp', eventId: 'e-stale', sessionId: 's1' },
        },
      ],
    };
    const both = [commit.write(batchOf('s2', 2)), commit.write(stale), commit.write(batchOf('s3', 1))];
    store.releaseFirst();
    await first;
    const [a, b, c] = await Promise.all(both);
    expect(store.calls).toHaveLength(2);
    expect(a!.statusesWritten).toEqual([true, true]);
    expect(b!.statusesWritten).toEqual([false]);
    expect(c!.statusesWritten).toEqual([true]);
  });

  it('writes each batch alone when a merged write fails for good, so only the batch the store refuses fails', async () => {
    const bad = new Error('value too long for column');
    const store = recordingStore((batch) =>
      batch.statuses!.some((s) => s.key.sessionId === 'bad') ? bad : undefined,
    );
    const commit = new GroupCommit(store.write);
    const first = commit.write(batchOf('s0', 1));
    await settle();
    const good = commit.write(batchOf('s1', 2));
    const refused = commit.write(batchOf('bad', 1));
    store.releaseFirst();
    await first;
    await expect(refused).rejects.toBe(bad);
    expect((await good).statusesWritten).toEqual([true, true]);
    // first alone, the merged attempt, then s1 and bad on their own
    expect(store.calls.map((c) => c.statuses!.length)).toEqual([1, 3, 2, 1]);
  });

  it('hands a retryable failure of a merged write to every caller without writing them one by one', async () => {
    const down = new NimBusError(NimBusErrorCode.ServiceUnavailable, 'connection refused');
    let failing = false;
    const store = recordingStore(() => (failing ? down : undefined));
    const commit = new GroupCommit(store.write);
    const first = commit.write(batchOf('s0', 1));
    await settle();
    const waiting = [commit.write(batchOf('s1', 1)), commit.write(batchOf('s2', 1))];
    failing = true;
    store.releaseFirst();
    await expect(first).rejects.toBe(down);
    for (const w of waiting) await expect(w).rejects.toBe(down);
    expect(store.calls).toHaveLength(2);
  });

  it('caps a merged write at 512 history records and writes the rest next', async () => {
    const store = recordingStore();
    const commit = new GroupCommit(store.write);
    const first = commit.write(batchOf('s0', 1));
    await settle();
    const many = Array.from({ length: 40 }, (_, i) => commit.write(batchOf(`s${i + 1}`, 16)));
    store.releaseFirst();
    await Promise.all([first, ...many]);
    expect(store.calls.slice(1).map((c) => c.messages!.length)).toEqual([512, 128]);
  });

  it('refuses, unwritten, a batch whose session lease lapsed while it waited behind another write', async () => {
    const store = recordingStore();
    const commit = new GroupCommit(store.write);
    const first = commit.write(batchOf('s0', 1));
    await settle();
    let leaseHeld = true;
    const lapsed = commit.write(batchOf('s1', 2), () => {
      if (!leaseHeld) throw new NimBusError(NimBusErrorCode.Closed, 'lease of s1 lapsed');
    });
    const held = commit.write(batchOf('s2', 1), () => undefined);
    await settle();
    leaseHeld = false;
    store.releaseFirst();
    await expect(lapsed).rejects.toThrow('lease of s1 lapsed');
    expect((await held).statusesWritten).toEqual([true]);
    await first;
    expect(store.calls.flatMap((c) => c.statuses!.map((s) => s.key.sessionId))).toEqual(['s0', 's2']);
  });
});
