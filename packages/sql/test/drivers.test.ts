import { isNimBusError, NimBusErrorCode } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import { loadDriver } from '../src/drivers.js';
import { type DriverNotInstalledError, loadBetterSqlite3, loadPg } from '../src/index.js';

describe('SQL drivers (optional peer dependencies)', () => {
  it('loads the installed drivers', () => {
    expect(typeof loadPg().Pool).toBe('function');
    expect(typeof loadBetterSqlite3()).toBe('function');
  });

  it('fails for a driver that is not installed with DriverNotInstalled, naming the npm install to run', () => {
    const failure = (() => {
      try {
        return loadDriver(
          'nimbus-driver-that-is-not-installed',
          'TestDB',
          'nimbus-driver-that-is-not-installed@2',
        );
      } catch (error) {
        return error;
      }
    })();
    expect(isNimBusError(failure, NimBusErrorCode.DriverNotInstalled)).toBe(true);
    expect(failure).toMatchObject({
      name: 'DriverNotInstalledError',
      driver: 'nimbus-driver-that-is-not-installed',
      isRetryable: false,
      message:
        "TestDB needs the 'nimbus-driver-that-is-not-installed' package, which is not installed: " +
        'run `npm install nimbus-driver-that-is-not-installed@2`.',
    });
    expect((failure as DriverNotInstalledError).cause).toMatchObject({ code: 'MODULE_NOT_FOUND' });
  });

  it('passes on a failure other than the driver missing', () => {
    // Only a missing driver is reported as "not installed"; any other failure to load is thrown as it is.
    expect(() => loadDriver('node:no-such-builtin', 'TestDB', 'x')).toThrow(
      expect.objectContaining({ code: 'ERR_UNKNOWN_BUILTIN_MODULE' }),
    );
  });
});
