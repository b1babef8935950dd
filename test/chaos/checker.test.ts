import { describe, expect, it } from 'vitest';
import { check } from './checker.js';
import type { HandlerRun } from './harness/handler-log.js';
import type { PlannedEvent } from './workload.js';

// The chaos checker's order rule, on hand-made logs: a run that an operator declared out of order (an
// acknowledged resubmit of a dead-lettered event) is counted apart; every other run is still checked.
const planned: PlannedEvent[] = [
  { orderId: 'o', n: 1, mode: 'permanent' },
  { orderId: 'o', n: 2, mode: 'ok' },
  { orderId: 'o', n: 3, mode: 'block' },
];

let clock = 0;
const run = (n: number, outcome: 'handled' | 'failed', mode: HandlerRun['mode'] = 'ok'): HandlerRun => {
  clock += 10;
  return {
    at: clock,
    host: 'h',
    pid: 1,
    eventId: `e${n}`,
    messageId: `m${n}`,
    orderId: 'o',
    n,
    mode,
    run: 1,
    replay: false,
    outcome,
  };
};

function scenario() {
  clock = 0;
  const runs = [
    run(1, 'failed', 'permanent'),
    run(2, 'handled'),
    run(3, 'failed', 'block'),
    run(3, 'handled'),
  ];
  const declaredAt = clock + 5;
  runs.push(run(1, 'handled')); // the edited resubmit of the dead-lettered o/1, after o/2 and o/3
  const rows = ['Completed', 'Completed', 'Completed'].map((status, i) => ({
    eventId: `e${i + 1}`,
    sessionId: 'o',
    status,
  }));
  return { runs, rows, declaredAt };
}

describe('chaos checker: declared out-of-order runs', () => {
  it('counts a late run of an undeclared event as reordered', () => {
    const { runs, rows } = scenario();
    const result = check({ published: planned, runs, rows, leftovers: [], unexpectedExits: [] });
    expect(result.violations.reordered).toEqual(['o/1 ran (handled, h) after o/3 succeeded']);
    expect(result.figures.declaredOutOfOrderRuns).toBe(0);
  });

  it('reports the declared run as its own figure, not as a reorder', () => {
    const { runs, rows, declaredAt } = scenario();
    const result = check({
      published: planned,
      runs,
      rows,
      leftovers: [],
      unexpectedExits: [],
      declaredOutOfOrder: new Map([['e1', declaredAt]]),
    });
    expect(result.violations.reordered).toEqual([]);
    expect(result.figures).toMatchObject({ declaredOutOfOrderEvents: 1, declaredOutOfOrderRuns: 1 });
  });

  it('still checks runs of a declared event from before the declaration, and every other event', () => {
    const { runs, rows, declaredAt } = scenario();
    // o/2 ran again after o/3 succeeded: a real reorder that no declaration about o/1 excuses.
    const late = { ...run(2, 'handled'), at: declaredAt + 100 };
    const early = { ...run(1, 'failed', 'permanent'), at: declaredAt - 1 };
    const result = check({
      published: planned,
      runs: [...runs.slice(0, 4), early, ...runs.slice(4), late],
      rows,
      leftovers: [],
      unexpectedExits: [],
      declaredOutOfOrder: new Map([['e1', declaredAt]]),
    });
    expect(result.violations.reordered).toEqual([
      'o/1 ran (failed, h) after o/3 succeeded',
      'o/2 ran (handled, h) after o/3 succeeded',
    ]);
    expect(result.figures.declaredOutOfOrderRuns).toBe(1);
  });
});

describe('chaos checker: a settlement that never committed', () => {
  it('a run of the session again in order after its later successes were rolled back is at-least-once, not a reorder', () => {
    clock = 0;
    // The host that ran o/1 and o/2 was killed before settling; another one runs them again.
    const runs = [run(1, 'handled'), run(2, 'handled'), run(1, 'handled'), run(2, 'handled')].map((r, i) =>
      i >= 2 ? { ...r, pid: 2 } : r,
    );
    const rows = [1, 2].map((n) => ({ eventId: `e${n}`, sessionId: 'o', status: 'Completed' }));
    const planned2: PlannedEvent[] = [
      { orderId: 'o', n: 1, mode: 'ok' },
      { orderId: 'o', n: 2, mode: 'ok' },
    ];
    const killed = [{ pid: 1, at: runs[1]!.at + 100 }];
    const result = check({
      published: planned2,
      runs,
      rows,
      leftovers: [],
      unexpectedExits: [],
      kills: killed,
    });
    expect(result.violations.reordered).toEqual([]);
    expect(result.figures.redeliveredInOrder).toBe(1);
    expect(result.figures.duplicateRuns).toBe(2);
    // A stall of that process past its lease (its settlement refused) excuses it the same way.
    const stalled = check({
      published: planned2,
      runs,
      rows,
      leftovers: [],
      unexpectedExits: [],
      stalls: killed,
    });
    expect(stalled.violations.reordered).toEqual([]);
    // Another process alone is no excuse: without a kill or stall of the process that ran o/2, the run of o/1 by
    // the second host is a reorder (a host that lost its lease must run nothing of the session).
    const noFault = check({ published: planned2, runs, rows, leftovers: [], unexpectedExits: [] });
    expect(noFault.violations.reordered).toEqual(['o/1 ran (handled, h) after o/2 succeeded']);
    // A kill of some other process, or one long after the run, is no excuse either.
    const elsewhere = check({
      published: planned2,
      runs,
      rows,
      leftovers: [],
      unexpectedExits: [],
      kills: [
        { pid: 2, at: runs[1]!.at + 100 },
        { pid: 1, at: runs[1]!.at + 60_000 },
      ],
    });
    expect(elsewhere.violations.reordered).toEqual(['o/1 ran (handled, h) after o/2 succeeded']);
    // Without the later event running again, its success stood: the run of o/1 is a reorder.
    const stood = check({
      published: planned2,
      runs: runs.slice(0, 3),
      rows,
      leftovers: [],
      unexpectedExits: [],
    });
    expect(stood.violations.reordered).toEqual(['o/1 ran (handled, h) after o/2 succeeded']);
    // The same process replaying the line again with no crash and no outage (duplicate replays) is a reorder.
    const samePid = runs.map((r) => ({ ...r, pid: 1 }));
    const twice = check({ published: planned2, runs: samePid, rows, leftovers: [], unexpectedExits: [] });
    expect(twice.violations.reordered).toEqual(['o/1 ran (handled, h) after o/2 succeeded']);
    const outage = check({
      published: planned2,
      runs: samePid,
      rows,
      leftovers: [],
      unexpectedExits: [],
      databaseOutages: [samePid[1]!.at + 100],
    });
    expect(outage.violations.reordered).toEqual([]);
  });
});

describe('chaos checker: retries after a resubmit', () => {
  const failedRetryable = (at: number): HandlerRun => ({
    ...run(2, 'failed', 'block'),
    at,
    run: 2,
    messageType: 'ResubmissionRequest',
    retryable: true,
  });
  const input = (runs: HandlerRun[]) => ({
    published: [{ orderId: 'o', n: 2, mode: 'block' as const }],
    runs,
    rows: [{ eventId: 'e2', sessionId: 'o', status: 'Completed' }],
    leftovers: [],
    unexpectedExits: [],
  });

  it('accepts a retryable failure the bus ran again soon', () => {
    const retried = { ...run(2, 'handled', 'block'), at: 1_300, messageType: 'RetryRequest' };
    expect(check(input([failedRetryable(1_000), retried])).violations.notRetried).toEqual([]);
  });

  it('reports one that ran again only much later, or never', () => {
    const late = { ...run(2, 'handled', 'block'), at: 40_000, messageType: 'ResubmissionRequest' };
    expect(check(input([failedRetryable(1_000), late])).violations.notRetried).toEqual([
      'o/2 failed with a retryable error (run 2, ResubmissionRequest) and ran again only 39 s later (ResubmissionRequest)',
    ]);
    expect(check(input([failedRetryable(1_000)])).violations.notRetried).toHaveLength(1);
  });
});

describe('chaos checker: the write audit', () => {
  it('fails when the audit recorded nothing although events were handled', () => {
    clock = 0;
    const input = {
      published: [{ orderId: 'o', n: 1, mode: 'ok' as const }],
      runs: [run(1, 'handled')],
      rows: [{ eventId: 'e1', sessionId: 'o', status: 'Completed' }],
      leftovers: [],
      unexpectedExits: [],
    };
    expect(check(input).violations.overtaken).toEqual([]);
    expect(check({ ...input, writes: [] }).violations.overtaken).toEqual([
      'the write audit recorded no history write: the write order could not be checked',
    ]);
  });
});

describe('chaos checker: late duplicates', () => {
  it('checks the event first published, not a late duplicate of it (its own event id and row)', () => {
    clock = 0;
    const original = run(1, 'failed', 'block');
    const duplicate = { ...run(1, 'failed', 'block'), eventId: 'd1' };
    const duplicateResubmitted = { ...run(1, 'handled'), eventId: 'd1', run: 2 };
    const input = {
      published: [{ orderId: 'o', n: 1, mode: 'block' as const }],
      runs: [original, duplicate, duplicateResubmitted],
      rows: [
        { eventId: 'd1', sessionId: 'o', status: 'Completed' },
        { eventId: 'e1', sessionId: 'o', status: 'Skipped' },
      ],
      leftovers: [],
      unexpectedExits: [],
    };
    const result = check(input);
    expect(result.violations.skippedHandled).toEqual([]);
    expect(result.violations.lost).toEqual([]);
    expect(result.figures.skippedByOperator).toBe(1);
    // The event itself succeeding and then being reported Skipped is still caught.
    const handledItself = check({ ...input, runs: [original, { ...run(1, 'handled'), run: 2 }] });
    expect(handledItself.violations.skippedHandled).toEqual(['o/1 ended Skipped but its handler succeeded']);
  });
});

describe('chaos checker: the WebApp answers an operator', () => {
  it('counts every answer of 500 as a violation (an outage answers 503)', () => {
    const { runs, rows } = scenario();
    const internalErrors = ['500 skip of e1: {"error":"InternalError"}'];
    const result = check({
      published: planned,
      runs,
      rows,
      leftovers: [],
      unexpectedExits: [],
      internalErrors,
    });
    expect(result.violations.internalErrors).toEqual(internalErrors);
    expect(
      check({ published: planned, runs, rows, leftovers: [], unexpectedExits: [] }).violations.internalErrors,
    ).toEqual([]);
  });
});
