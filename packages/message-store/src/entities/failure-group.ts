/**
 * Failed and dead-lettered rows that share one failure signature (error type + normalised message), per
 * endpoint or across endpoints. Counts are of live rows now in those statuses.
 */
export interface FailureGroup {
  /** The signature key (`failureSignature(...).key`): pass it as `EventFilter.failureSignature`. */
  readonly signature: string;
  readonly errorType: string;
  readonly normalisedMessage: string;
  /** The endpoint of a per-endpoint group; every endpoint with such rows for a group across endpoints. */
  readonly endpointIds: readonly string[];
  readonly eventCount: number;
  /** Distinct session ids (a session id at two endpoints counts once). */
  readonly sessionCount: number;
  readonly failedCount: number;
  readonly deadLetteredCount: number;
  readonly eventTypeIds: readonly string[];
  /** The oldest and newest status write among the group's rows. */
  readonly firstSeen: Date;
  readonly lastSeen: Date;
  /** The error text of the group's newest row (the un-normalised message an operator reads). */
  readonly exampleErrorText: string | null;
}

export interface FailureGroupRequest {
  /** Only these endpoints (exact ids); absent or null = every endpoint. An empty list gives no groups. */
  readonly endpointIds?: readonly string[] | null;
  /** One group per signature over all the endpoints instead of one per (endpoint, signature). */
  readonly acrossEndpoints?: boolean;
  /** Only this signature (exact). */
  readonly signature?: string | null;
}
