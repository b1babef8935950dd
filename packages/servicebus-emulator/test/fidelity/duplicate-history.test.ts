import { describe, expect, it } from 'vitest';
import { DuplicateHistory, expiryOf, NEVER_MS } from '../../src/broker/entity-properties.js';

describe('duplicate detection window and message expiry (pure rules, explicit clock)', () => {
  it('remembers an id for the window only, and a re-send after it is accepted again', () => {
    const history = new DuplicateHistory(20_000);
    history.record('a', 0);
    history.record('b', 5_000);
    expect(history.isDuplicate('a', 19_999)).toBe(true);
    expect(history.isDuplicate('a', 20_000)).toBe(false);
    history.record('c', 25_000); // prunes 'a' and 'b', both out of the window
    expect(history.isDuplicate('b', 25_000)).toBe(false);
    expect(history.isDuplicate('c', 44_999)).toBe(true);
  });

  it('a message expires at the smaller of its own time to live and the entity default', () => {
    expect(expiryOf({ ttl: 1_000 }, 10_000, 60_000)).toBe(11_000);
    expect(expiryOf({ ttl: 120_000 }, 10_000, 60_000)).toBe(70_000);
    expect(expiryOf({}, 10_000, NEVER_MS)).toBe(Number.POSITIVE_INFINITY);
    expect(expiryOf({}, 10_000, 5_000)).toBe(15_000);
  });
});
