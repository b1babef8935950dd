import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Header, uuidv7 } from '@nimbus/core';
import { expect, it } from 'vitest';
import { createSqlTransport } from '../src/index.js';

it('docs/transport-sql.md example: publish, receive in a session, complete with a response', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-docs-'));
  const path = join(dir, 'transport.db');
  try {
    /* jscpd:ignore-start */ // the docs page's example, kept whole as a reader copies it
    // --- example start ---
    const transport = await createSqlTransport({ dialect: 'sqlite', path }, { lockDurationMs: 30_000 });
    await transport.applyTopology({
      endpoints: ['Crm', 'Erp'],
      routes: [{ source: 'Crm', eventTypeId: 'CustomerChanged', target: 'Erp' }],
    });

    // Crm publishes; Erp gets its own copy (and the Resolver one).
    await transport.publish([
      {
        source: 'Crm',
        messages: [
          {
            messageId: uuidv7(),
            sessionId: 'customer-42',
            correlationId: 'customer-42',
            headers: { [Header.To]: 'CustomerChanged', [Header.EventTypeId]: 'CustomerChanged' },
            body: JSON.stringify({ name: 'Ada' }),
          },
        ],
      },
    ]);

    // Erp leases the session, handles its messages in order, and completes each one together with a
    // Resolver-bound response: both commit in one transaction.
    const session = await transport.acceptSession('Erp', { waitMs: 1_000 });
    if (session) {
      for (const message of await session.receive({ max: 10, waitMs: 0 })) {
        const response = {
          messageId: uuidv7(),
          sessionId: message.sessionId,
          correlationId: message.correlationId,
          headers: { [Header.To]: 'Resolver' },
          body: JSON.stringify({ handled: message.messageId }),
        };
        await session.complete(message, { publish: [{ source: 'Erp', messages: [response] }] });
      }
      await session.release();
    }
    console.log(await transport.counts('Resolver')); // { active: 2, scheduled: 0, deadLettered: 0, parked: 0 }
    await transport.close();
    // --- example end ---
    /* jscpd:ignore-end */
    expect(session?.sessionId).toBe('customer-42');
    const reopened = await createSqlTransport({ dialect: 'sqlite', path });
    expect(await reopened.counts('Resolver')).toEqual({
      active: 2,
      scheduled: 0,
      deadLettered: 0,
      parked: 0,
    });
    expect((await reopened.counts('Erp')).active).toBe(0);
    await reopened.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
