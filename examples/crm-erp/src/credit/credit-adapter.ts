import { createSubscriber, type HandoffClient, type HandoffCoordinates, type Subscriber } from '@nimbus/sdk';
import { RequestCreditCheck } from '../events.js';
import type { FakeCreditBureau } from './fake-credit-bureau.js';

/**
 * The Credit adapter hands the check to the bureau and finishes the handler at once: the event stays Pending
 * (sub-status Handoff) until the bureau answers, and the answer settles it through the handoff client.
 */
export function creditSubscriber(
  bureau: FakeCreditBureau,
  handoff: () => HandoffClient,
  log: (line: string) => void,
): Subscriber {
  const waiting = new Map<string, HandoffCoordinates>();
  bureau.onDecision(async (job, decision) => {
    const coordinates = waiting.get(job.jobId);
    if (!coordinates) return;
    waiting.delete(job.jobId);
    try {
      await handoff().complete(coordinates, decision);
      log(`Credit answered ${job.customerId}: ${decision.approved ? 'approved' : 'declined'}`);
    } catch (error) {
      log(`Credit could not settle the handoff of ${job.customerId}: ${(error as Error).message}`);
    }
  });
  return createSubscriber().on(RequestCreditCheck, (request, context) => {
    const jobId = `bureau-${context.eventId}`;
    context.markPendingHandoff({
      reason: 'Waiting for the credit bureau',
      externalJobId: jobId,
      expectedBy: new Date(Date.now() + 60_000),
    });
    waiting.set(jobId, {
      eventId: context.eventId,
      sessionId: context.sessionId,
      messageId: context.messageId,
      eventTypeId: context.eventTypeId,
      correlationId: context.correlationId,
      originatingMessageId: context.originatingMessageId,
    });
    bureau.submit({ jobId, customerId: request.customerId, amount: request.amount });
    log(`Credit handed off the check of ${request.customerId} to the bureau`);
  });
}
