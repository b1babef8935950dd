import type { DialectLocks } from '../dialect.js';

// Every write transaction holds the one write lock (`BEGIN IMMEDIATE`) from its start: applyTopology calls and
// sweeps are serialised against every other writer already.
export const sqliteLocks: DialectLocks = {
  async lockTopology() {},
  async isolateSweep() {},
};
