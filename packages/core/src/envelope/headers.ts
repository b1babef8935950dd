/** Application header names on the wire. */
export const Header = {
  To: 'To',
  From: 'From',
  MessageType: 'MessageType',
  EventId: 'EventId',
  EventTypeId: 'EventTypeId',
  OriginatingMessageId: 'OriginatingMessageId',
  ParentMessageId: 'ParentMessageId',
  OriginatingFrom: 'OriginatingFrom',
  RetryCount: 'RetryCount',
  RetryLimit: 'RetryLimit',
  NextRetryAt: 'NextRetryAt',
  OriginalSessionId: 'OriginalSessionId',
  DeferralSequence: 'DeferralSequence',
  QueueTimeMs: 'QueueTimeMs',
  ProcessingTimeMs: 'ProcessingTimeMs',
  DeadLetterReason: 'DeadLetterReason',
  DeadLetterErrorDescription: 'DeadLetterErrorDescription',
  HandoffReason: 'HandoffReason',
  ExternalJobId: 'ExternalJobId',
  ExpectedBy: 'ExpectedBy',
  ReplyTo: 'ReplyTo',
  ReplyToSessionId: 'ReplyToSessionId',
  ReplyStatus: 'ReplyStatus',
  ErrorType: 'ErrorType',
  ErrorText: 'ErrorText',
  ThrottleRetryCount: 'ThrottleRetryCount',
  /** `true` on a resubmission the operator confirmed may run after later events of its session. */
  AcknowledgeOutOfOrder: 'AcknowledgeOutOfOrder',
  TraceParent: 'traceparent',
  TraceState: 'tracestate',
  CloudEventId: 'CloudEventId',
  CloudEventSource: 'CloudEventSource',
  CloudEventType: 'CloudEventType',
  CloudEventSubject: 'CloudEventSubject',
} as const;

export type HeaderName = (typeof Header)[keyof typeof Header];

export type Headers = Readonly<Record<string, string>>;
