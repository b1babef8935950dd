import { decodeEnvelope, MessageType, topologyFromPlatform } from '@nimbus/core';
import { platform } from '@nimbus/example-crm-erp';
import { createMemoryMessageStore, MessageAuditType, ResolutionStatus } from '@nimbus/message-store';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { beforeEach, describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../src/exit-codes.js';
import { CliOperatorActions } from '../src/operator/operator-actions.js';

const payload = { customerId: 'C-1', name: 'Ada', email: 'a@x.example', vatNumber: 'DK-BAD', revision: 1 };

async function setup() {
  const store = createMemoryMessageStore();
  const transport = createMemoryTransport();
  await transport.applyTopology(topologyFromPlatform(platform));
  const base = {
    enqueuedTimeUtc: new Date(),
    eventTypeId: 'CustomerUpserted',
    correlationId: 'corr-1',
    originatingMessageId: 'origin-1',
    from: 'Crm',
    to: 'Erp',
  };
  await store.storeMessage({
    ...base,
    eventId: 'ev-1',
    messageId: 'req-1',
    endpointId: 'Erp',
    sessionId: 'C-1',
    messageType: MessageType.EventRequest,
    messageContent: {
      eventContent: { eventTypeId: 'CustomerUpserted', eventJson: JSON.stringify(payload) },
      errorContent: null,
    },
  });
  await store.writeStatus({
    key: { endpointId: 'Erp', eventId: 'ev-1', sessionId: 'C-1' },
    status: ResolutionStatus.Failed,
    content: {
      ...base,
      messageType: MessageType.ErrorResponse,
      lastMessageId: 'err-1',
    },
  });
  return { store, transport, actions: new CliOperatorActions(store, transport, 'cli:tester') };
}

async function sentToErp(transport: ReturnType<typeof createMemoryTransport>) {
  const session = await transport.acceptSession('Erp', { sessionId: 'C-1', waitMs: 50 });
  if (!session) throw new Error('nothing was sent to Erp');
  const [message] = await session.receive({ max: 10, waitMs: 50 });
  await session.release();
  if (!message) throw new Error('nothing was sent to Erp');
  return decodeEnvelope(message);
}

describe('CliOperatorActions', () => {
  let ctx: Awaited<ReturnType<typeof setup>>;
  beforeEach(async () => {
    ctx = await setup();
  });

  it('resubmits with an edited payload to the endpoint, parented on the failed message, and audits it', async () => {
    const row = await ctx.actions.load('Erp', 'ev-1');
    const edited = JSON.stringify({ ...payload, vatNumber: 'DK12345678' });
    const outcome = await ctx.actions.resubmit(row, edited, 'fixed');
    expect(outcome).toMatchObject({ action: 'resubmitWithChanges', sessionId: 'C-1', auditor: 'cli:tester' });

    const sent = await sentToErp(ctx.transport);
    expect(sent).toMatchObject({
      messageId: outcome.messageId,
      messageType: MessageType.ResubmissionRequest,
      to: 'Erp',
      from: 'Manager',
      eventId: 'ev-1',
      sessionId: 'C-1',
      correlationId: 'corr-1',
      parentMessageId: 'err-1',
      originatingMessageId: 'origin-1',
    });
    expect(sent.content.eventContent).toEqual({ eventTypeId: 'CustomerUpserted', eventJson: edited });

    const audits = await ctx.store.getMessageAudits('ev-1');
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      auditorName: 'cli:tester',
      auditType: MessageAuditType.ResubmitWithChanges,
      comment: 'fixed',
      endpointId: 'Erp',
    });
    expect(JSON.parse(audits[0]?.data ?? '{}')).toMatchObject({ action: 'resubmitWithChanges', via: 'cli' });
  });

  it('resubmits unchanged with the stored payload', async () => {
    await ctx.actions.resubmit(await ctx.actions.load('Erp', 'ev-1'), null, null);
    const sent = await sentToErp(ctx.transport);
    expect(sent.content.eventContent?.eventJson).toBe(JSON.stringify(payload));
    expect((await ctx.store.getMessageAudits('ev-1'))[0]?.auditType).toBe(MessageAuditType.Resubmit);
  });

  it('skips and audits the skip', async () => {
    await ctx.actions.skip(await ctx.actions.load('Erp', 'ev-1'), null);
    expect((await sentToErp(ctx.transport)).messageType).toBe(MessageType.SkipRequest);
    expect((await ctx.store.getMessageAudits('ev-1'))[0]?.auditType).toBe(MessageAuditType.Skip);
  });

  it('refuses events that are not failed, sending nothing and auditing nothing', async () => {
    await ctx.store.writeStatus({
      key: { endpointId: 'Erp', eventId: 'ev-1', sessionId: 'C-1' },
      status: ResolutionStatus.Completed,
      content: {
        enqueuedTimeUtc: new Date(),
        messageType: MessageType.ResolutionResponse,
      },
    });
    const row = await ctx.actions.load('Erp', 'ev-1');
    expect(row.resolutionStatus).toBe(ResolutionStatus.Completed);
    await expect(ctx.actions.resubmit(row, null, null)).rejects.toThrow(/it is Completed; only Failed/);
    await expect(ctx.actions.skip(row, null)).rejects.toThrow(CliError);
    expect((await ctx.transport.counts('Erp')).active).toBe(0);
    expect(await ctx.store.getMessageAudits('ev-1')).toEqual([]);
  });

  it('reports an unknown event as not found (exit 4)', async () => {
    const error = await ctx.actions.load('Erp', 'nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(ExitCode.NotFound);
  });
});
