import { isNimBusError, NimBusErrorCode } from '@nimbus/core';
import { describeLifecycleConformance } from '@nimbus/core/conformance';
import { createTemporaryDatabase, shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { describe, expect, it } from 'vitest';
import { ReconnectingPgListener } from '../src/index.js';

describe('ReconnectingPgListener options', () => {
  it('refuses a LISTEN channel that is not a plain SQL identifier with InvalidOption naming it', () => {
    const open = (channel: string) =>
      new ReconnectingPgListener({
        connectionString: 'postgres://127.0.0.1:1/none',
        channels: [channel],
        events: { onNotification: () => undefined },
      });
    let refused: unknown;
    try {
      open('bad"; drop table x; --');
    } catch (error) {
      refused = error;
    }
    expect(isNimBusError(refused, NimBusErrorCode.InvalidOption), String(refused)).toBe(true);
    expect((refused as Error).message).toMatch(/LISTEN channel 'bad"; drop table x; --' must be a plain SQL/);
    // PostgreSQL's own limit (63) applies, not the 46 of the names the options give.
    expect(() => open(`nimbus_state_${'s'.repeat(46)}`)).not.toThrow();
    expect(() => open('c'.repeat(64))).toThrow(/at most 63 characters/);
  });
});

describe.runIf(await shouldRunPostgresSuite('@nimbus/sql LISTEN lifecycle'))(
  'ReconnectingPgListener on the one lifecycle',
  () => {
    // A listener has no work of its own to hold (it hears notifications): the suite runs it idle.
    describeLifecycleConformance('ReconnectingPgListener', async () => {
      const database = await createTemporaryDatabase('nimbus_listener_lifecycle');
      return {
        component: new ReconnectingPgListener({
          connectionString: database.url,
          channels: ['nimbus_lifecycle'],
          events: { onNotification: () => undefined },
        }),
        signalsWork: false,
        cleanup: () => database.drop(),
      };
    });
  },
);
