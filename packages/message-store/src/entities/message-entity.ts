import type { MessageContent, MessageType } from '@nimbus/core';
import type { EndpointRole } from '../enums.js';

/** One bus message in an event's history, keyed by (eventId, messageId). */
export interface MessageEntity {
  readonly eventId: string;
  readonly messageId: string;
  readonly eventTypeId: string | null;
  readonly originatingMessageId: string | null;
  readonly parentMessageId: string | null;
  readonly from: string | null;
  readonly to: string | null;
  readonly originatingFrom: string | null;
  readonly sessionId: string | null;
  readonly correlationId: string | null;
  readonly enqueuedTimeUtc: Date;
  readonly messageContent: MessageContent;
  readonly messageType: MessageType;
  readonly endpointRole: EndpointRole;
  readonly endpointId: string;
  readonly retryCount: number | null;
  readonly retryLimit: number | null;
  readonly deadLetterReason: string | null;
  readonly deadLetterErrorDescription: string | null;
  readonly originalSessionId: string | null;
  readonly deferralSequence: number | null;
  readonly queueTimeMs: number | null;
  readonly processingTimeMs: number | null;
  readonly pendingSubStatus: string | null;
  readonly handoffReason: string | null;
  readonly externalJobId: string | null;
  readonly expectedBy: Date | null;
  readonly cloudEventId: string | null;
  readonly cloudEventSource: string | null;
  readonly cloudEventType: string | null;
  readonly cloudEventSubject: string | null;
}

type RequiredMessageField = 'eventId' | 'messageId' | 'endpointId' | 'enqueuedTimeUtc' | 'messageType';

/** What `storeMessage` accepts: omitted optional fields are stored as null. */
export type MessageEntityWrite = Pick<MessageEntity, RequiredMessageField> &
  Partial<Omit<MessageEntity, RequiredMessageField>>;
