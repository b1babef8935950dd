/** Every kind of message the engine and the Resolver know. Stored and sent by name. */
export const MessageType = {
  Unknown: 'Unknown',
  EventRequest: 'EventRequest',
  ErrorResponse: 'ErrorResponse',
  ResolutionResponse: 'ResolutionResponse',
  DeferralResponse: 'DeferralResponse',
  SkipResponse: 'SkipResponse',
  ResubmissionRequest: 'ResubmissionRequest',
  SkipRequest: 'SkipRequest',
  RetryRequest: 'RetryRequest',
  ContinuationRequest: 'ContinuationRequest',
  UnsupportedResponse: 'UnsupportedResponse',
  ProcessDeferredRequest: 'ProcessDeferredRequest',
  PendingHandoffResponse: 'PendingHandoffResponse',
  HandoffCompletedRequest: 'HandoffCompletedRequest',
  HandoffFailedRequest: 'HandoffFailedRequest',
  /**
   * The engine refused an operator request (resubmit, skip, handoff settlement, reprocess deferred) because the
   * event does not await one in its session; nothing ran. Recorded in the event's history, changes no status.
   */
  RefusalResponse: 'RefusalResponse',
} as const;

export type MessageType = (typeof MessageType)[keyof typeof MessageType];

const ALL = new Set<string>(Object.values(MessageType));

export function isMessageType(value: unknown): value is MessageType {
  return typeof value === 'string' && ALL.has(value);
}

/** Requests are addressed to an endpoint and handled by its engine. */
export const REQUEST_TYPES: ReadonlySet<MessageType> = new Set<MessageType>([
  MessageType.EventRequest,
  MessageType.ResubmissionRequest,
  MessageType.SkipRequest,
  MessageType.RetryRequest,
  MessageType.ContinuationRequest,
  MessageType.HandoffCompletedRequest,
  MessageType.HandoffFailedRequest,
]);

/** Responses are addressed to the Resolver and describe an outcome. */
export const RESPONSE_TYPES: ReadonlySet<MessageType> = new Set<MessageType>([
  MessageType.ErrorResponse,
  MessageType.ResolutionResponse,
  MessageType.DeferralResponse,
  MessageType.SkipResponse,
  MessageType.UnsupportedResponse,
  MessageType.PendingHandoffResponse,
  MessageType.RefusalResponse,
]);
