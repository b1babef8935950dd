import type { StatusWrite } from './contracts/tracking-requests.js';
import type { MessageEntityWrite } from './entities/message-entity.js';

/**
 * Which status writes of a tracking batch come from a redelivered copy: the status row's `lastMessageId` names a
 * message of the batch whose history record was already stored before the batch (no entry of the batch stored
 * it). Where history and status rows are written in one transaction (SQL, memory), such a message's status was
 * applied with its history back then; applying it again would wind the row back for a moment when later
 * outcomes of the event (a Completed, a Skipped) followed it: a Resolver killed between its store commit and its
 * settlement gets the same messages again. Answers one flag per status write: true = skip it.
 */
export function redeliveredStatusWrites(
  messages: readonly MessageEntityWrite[],
  messagesStored: readonly boolean[],
  statuses: readonly StatusWrite[],
): boolean[] {
  const ref = (eventId: string, messageId: string) => `${eventId}\u0000${messageId}`;
  const storedNow = new Set<string>();
  const seenBefore = new Set<string>();
  messages.forEach((message, i) => {
    const key = ref(message.eventId, message.messageId);
    if (messagesStored[i]) storedNow.add(key);
    else seenBefore.add(key);
  });
  return statuses.map((write) => {
    const messageId = write.content.lastMessageId;
    if (messageId === null || messageId === undefined) return false;
    const key = ref(write.key.eventId, messageId);
    return seenBefore.has(key) && !storedNow.has(key);
  });
}

/**
 * Writes the status writes `redelivered` does not flag with `write` (in their order) and answers one result per
 * status write: false for a redelivered copy's, left out.
 */
export async function writeLeavingOutRedelivered(
  statuses: readonly StatusWrite[],
  redelivered: readonly boolean[],
  write: (fresh: readonly StatusWrite[]) => Promise<readonly boolean[]> | readonly boolean[],
): Promise<boolean[]> {
  const written = await write(statuses.filter((_, i) => !redelivered[i]));
  let next = 0;
  return statuses.map((_, i) => !redelivered[i] && written[next++] === true);
}
