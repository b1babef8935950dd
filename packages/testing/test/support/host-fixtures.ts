import { topologyFromPlatform } from '@nimbus/core';
import { Publisher } from '@nimbus/sdk';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { afterEach } from 'vitest';
import { platform } from '../fixtures.js';

/** Waits until `check` holds, polling every 5 ms; fails after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A list of stops that runs, in order, after each test of the file (push hosts and transports onto it). */
export function stopsAfterEach(): (() => Promise<void>)[] {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });
  return stops;
}

/** A memory transport with the test platform's topology (closed through `stops`) and Sales' publisher. */
export async function memorySalesBus(stops: (() => Promise<void>)[]) {
  const transport = createMemoryTransport();
  await transport.applyTopology(topologyFromPlatform(platform));
  stops.push(() => transport.close());
  return { transport, sales: new Publisher({ transport, endpoint: 'Sales', platform }) };
}
