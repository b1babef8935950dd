import { describe, expect, it } from 'vitest';
import { NextSessionTurns } from '../src/next-session-turns.js';

/** An ask that records when it runs and ends only when `finish` is called. */
function gatedAsk(log: string[], name: string) {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const ask = async () => {
    log.push(`start ${name}`);
    await finished;
    log.push(`end ${name}`);
    return name;
  };
  return { ask, finish };
}

const far = () => Date.now() + 60_000;

describe('NextSessionTurns', () => {
  it('runs the asks of one input one after the other, in the order they came', async () => {
    const turns = new NextSessionTurns();
    const log: string[] = [];
    const first = gatedAsk(log, 'first');
    const second = gatedAsk(log, 'second');
    const a = turns.run('Erp', far(), undefined, first.ask);
    const b = turns.run('Erp', far(), undefined, second.ask);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).toEqual(['start first']);
    first.finish();
    second.finish();
    expect(await Promise.all([a, b])).toEqual(['first', 'second']);
    expect(log).toEqual(['start first', 'end first', 'start second', 'end second']);
  });

  it('lets asks of different inputs run at once', async () => {
    const turns = new NextSessionTurns();
    const log: string[] = [];
    const erp = gatedAsk(log, 'Erp');
    const billing = gatedAsk(log, 'Billing');
    const a = turns.run('Erp', far(), undefined, erp.ask);
    const b = turns.run('Billing', far(), undefined, billing.ask);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).toEqual(['start Erp', 'start Billing']);
    erp.finish();
    billing.finish();
    await Promise.all([a, b]);
  });

  it('gives null without asking when the deadline or an abort comes first, and keeps the order for the rest', async () => {
    const turns = new NextSessionTurns();
    const log: string[] = [];
    const first = gatedAsk(log, 'first');
    const late = gatedAsk(log, 'late');
    const aborted = gatedAsk(log, 'aborted');
    const last = gatedAsk(log, 'last');
    const stop = new AbortController();
    const a = turns.run('Erp', far(), undefined, first.ask);
    const b = turns.run('Erp', Date.now() + 30, undefined, late.ask);
    const c = turns.run('Erp', far(), stop.signal, aborted.ask);
    const d = turns.run('Erp', far(), undefined, last.ask);
    stop.abort();
    expect(await b).toBeNull();
    expect(await c).toBeNull();
    expect(log).toEqual(['start first']);
    first.finish();
    last.finish();
    expect(await a).toBe('first');
    expect(await d).toBe('last');
    expect(log).toEqual(['start first', 'end first', 'start last', 'end last']);
  });
});
