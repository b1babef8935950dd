import type { Logger, Platform, Transport } from '@nimbus/core';
import { CliError } from '../exit-codes.js';
import { loadPlatformModule } from '../load-platform.js';

/** The sample platform is loaded like any user platform: by package name, at run time, only when asked for. */
export const SAMPLE_PLATFORM_MODULE = '@nimbus/example-crm-erp';

interface Stoppable {
  stop(): Promise<void>;
}

/** What `nimbus dev` needs from the sample module besides its `platform`. */
export interface SampleModule {
  readonly platform: Platform;
  readonly blockedDemoCustomer: string;
  startSampleAdapters(options: {
    transport: Transport;
    logger: Logger;
    log: (line: string) => void;
    /** How often the adapters' hosts renew their session leases (`--lease-renew-ms`). */
    leaseRenewalIntervalMs?: number;
  }): Promise<Stoppable>;
  startTrafficGenerator(options: {
    transport: Transport;
    log: (line: string) => void;
    intervalMs: number;
    blockedScenario: boolean;
  }): Promise<Stoppable>;
}

/** Loads the sample platform module; a missing or incomplete module is an error that says what to do. */
export async function loadSampleModule(specifier = SAMPLE_PLATFORM_MODULE): Promise<SampleModule> {
  let loaded: Awaited<ReturnType<typeof loadPlatformModule>>;
  try {
    loaded = await loadPlatformModule(specifier);
  } catch (error) {
    throw new CliError(
      `The sample platform (${specifier}) is not available: ${(error as Error).message}. ` +
        'Pass --platform <module> with your own platform, or install the sample.',
    );
  }
  const { platform, module } = loaded;
  const missing = ['startSampleAdapters', 'startTrafficGenerator'].filter(
    (name) => typeof module[name] !== 'function',
  );
  if (typeof module.BLOCKED_DEMO_CUSTOMER !== 'string') missing.push('BLOCKED_DEMO_CUSTOMER');
  if (missing.length > 0) {
    throw new CliError(`The sample module ${specifier} does not export ${missing.join(', ')}.`);
  }
  return {
    platform,
    blockedDemoCustomer: module.BLOCKED_DEMO_CUSTOMER as string,
    startSampleAdapters: module.startSampleAdapters as SampleModule['startSampleAdapters'],
    startTrafficGenerator: module.startTrafficGenerator as SampleModule['startTrafficGenerator'],
  };
}
