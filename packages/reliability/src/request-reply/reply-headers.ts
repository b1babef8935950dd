export const ReplyStatus = { Success: 'Success', Error: 'Error' } as const;
export type ReplyStatus = (typeof ReplyStatus)[keyof typeof ReplyStatus];

/** How long an unclaimed reply is worth keeping; transports with message expiry may drop it after this. */
export const REPLY_TIME_TO_LIVE_MS = 5 * 60_000;
