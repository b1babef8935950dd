import { expect, it } from 'vitest';
import { localExpiry } from '../src/sql-session-handle.js';

it('expresses a lease expiry on the local clock, whatever the database clock says', () => {
  // Database clock 30 s ahead of ours: 25 s of lease left when it answered a request we sent at t = 1 000.
  expect(localExpiry(1_000, { locked_until: 56_000, db_now: 31_000 })).toBe(26_000);
  // Database clock behind ours: same remaining lease, same local expiry.
  expect(localExpiry(1_000, { locked_until: 25_000, db_now: 0 })).toBe(26_000);
});
