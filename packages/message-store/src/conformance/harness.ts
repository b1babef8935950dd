import { randomUUID } from 'node:crypto';
import { ManualClock } from '@nimbus/core';
import { afterEach } from 'vitest';
import { DEFAULT_RETENTION, type RetentionOptions } from '../retention.js';
import type { ConformanceStoreFactory, StoreUnderTest } from './factory.js';

/** 2026-07-10T12:00:00Z: every suite starts its clock here. */
export const T0 = Date.UTC(2026, 6, 10, 12, 0, 0);

export interface OpenedStore<T> {
  readonly store: T;
  readonly clock: ManualClock;
  /** Prefixes an id with this test's scope, so suites can share one backend. */
  id(name: string): string;
}

/**
 * Registers cleanup and returns `open()`: each test opens its own store (optionally with a
 * retention setting) and it is disposed of after the test, pass or fail.
 */
export function storeOpener<T>(factory: ConformanceStoreFactory<T>) {
  const opened: StoreUnderTest<T>[] = [];
  afterEach(async () => {
    const toClose = opened.splice(0);
    for (const s of toClose) await s.cleanup();
  });
  return async (retention: RetentionOptions = DEFAULT_RETENTION): Promise<OpenedStore<T>> => {
    const clock = new ManualClock(T0);
    const underTest = await factory({ clock, retention });
    opened.push(underTest);
    const scope = `ct-${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    return { store: underTest.store, clock, id: (name) => `${scope}-${name}` };
  };
}
