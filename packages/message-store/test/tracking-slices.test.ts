import { describe, expectTypeOf, it } from 'vitest';
import type {
  MessageTrackingStore,
  TrackingAuditsAndReports,
  TrackingEndpointViews,
  TrackingEventLookups,
  TrackingEventSearch,
  TrackingFailureGroups,
  TrackingMessageHistory,
  TrackingRetention,
  TrackingRowLifecycle,
  TrackingStatusWrites,
} from '../src/index.js';

type AllSlices = TrackingStatusWrites &
  TrackingRowLifecycle &
  TrackingEventLookups &
  TrackingEventSearch &
  TrackingFailureGroups &
  TrackingEndpointViews &
  TrackingMessageHistory &
  TrackingAuditsAndReports &
  TrackingRetention;

describe('MessageTrackingStore slices', () => {
  it('name every member of the contract, so providers built from slices are complete', () => {
    expectTypeOf<Exclude<keyof MessageTrackingStore, keyof AllSlices>>().toEqualTypeOf<never>();
  });
});
