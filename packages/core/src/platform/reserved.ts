/** Event type id of the platform heartbeat; dotted so that no user event id can collide with it. */
export const HEARTBEAT_EVENT_TYPE_ID = 'NimBus.Platform.Heartbeat';

/** Well-known addresses used by the engine and the Resolver. */
export const Addresses = {
  resolver: 'Resolver',
  manager: 'Manager',
  retry: 'Retry',
  continuation: 'Continuation',
  deferredProcessor: 'DeferredProcessor',
  self: 'self',
} as const;

export const RESERVED_EVENT_TYPE_IDS: ReadonlySet<string> = new Set([HEARTBEAT_EVENT_TYPE_ID]);

/** Endpoint ids that the platform itself uses as addresses; user endpoints may not take them. */
export const RESERVED_ENDPOINT_IDS: ReadonlySet<string> = new Set(Object.values(Addresses));
