import type { ManualClock } from '@nimbus/core';
import type { RetentionOptions } from '../retention.js';

/**
 * What a suite hands a provider's factory. The provider must take every "now" it stamps
 * (updatedAt, audit createdAt, claims, retention windows, metrics "now") from `clock`, and apply
 * `retention` as its unresolved-row retention.
 */
export interface ConformanceSetup {
  readonly clock: ManualClock;
  readonly retention: RetentionOptions;
}

/** A fresh, isolated store and how to dispose of it (drop the database, delete the temp dir…). */
export interface StoreUnderTest<T> {
  readonly store: T;
  cleanup(): Promise<void>;
}

export type ConformanceStoreFactory<T> = (setup: ConformanceSetup) => Promise<StoreUnderTest<T>>;
