export {
  assertInboxConfigured,
  createInbox,
  DEFAULT_INBOX_CLEANUP_INTERVAL_MS,
  DEFAULT_INBOX_RETENTION_MS,
  INBOX_GUARDED_TYPES,
  type Inbox,
  InboxConfigurationError,
  type InboxDecision,
  type InboxGuardResult,
  type InboxOptions,
  inboxGuard,
} from './inbox/inbox.js';
export {
  INBOX_PURGE_BATCH,
  type InboxStore,
  InboxStoreError,
  inboxBypassReason,
  inboxIdentity,
  MAX_INBOX_ENDPOINT_ID_LENGTH,
  MAX_INBOX_MESSAGE_ID_LENGTH,
} from './inbox/inbox-store.js';
export { MemoryInboxStore } from './inbox/memory-inbox-store.js';
export {
  createPostgresInboxStore,
  createSqliteInboxStore,
  type SqlInboxOptions,
  SqlInboxStore,
} from './inbox/sql-inbox-store.js';
export { MemoryOutboxStore } from './outbox/memory-outbox-store.js';
export {
  OutboxDispatcher,
  OutboxDispatcherConfigurationError,
  type OutboxDispatcherOptions,
} from './outbox/outbox-dispatcher.js';
export type {
  OutboxEntry,
  OutboxMessage,
  OutboxStore,
  OutboxWriteOptions,
} from './outbox/outbox-store.js';
export { createOutboxTransport, isOutboxTransport, OutboxPublisherSink } from './outbox/outbox-transport.js';
export {
  createPostgresOutboxStore,
  createSqliteOutboxStore,
  type SqlOutboxOptions,
  SqlOutboxStore,
} from './outbox/sql-outbox-store.js';
export {
  InvalidReplyError,
  RequestReplyConfigurationError,
  RequestReplyError,
  RequestTimeoutError,
} from './request-reply/errors.js';
export { REPLY_TIME_TO_LIVE_MS, ReplyStatus } from './request-reply/reply-headers.js';
export { replyToFailedRequests } from './request-reply/request-failure-replies.js';
export {
  createRequester,
  type ReplyContract,
  type Requester,
  type RequesterOptions,
  type RequestOptions,
} from './request-reply/requester.js';
export {
  createResponder,
  type ReplyAddress,
  type Responder,
  replyAddressOf,
} from './request-reply/responder.js';
export { type RequestContext, respondingHandler } from './request-reply/responding-handler.js';
export {
  type SqlConnection,
  type SqlDialect,
  withAmbientTransaction,
} from './sql/sql-connection.js';
