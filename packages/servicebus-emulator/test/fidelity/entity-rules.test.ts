import { ServiceBusAdministrationClient, ServiceBusClient } from '@azure/service-bus';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/index.js';

/*
 * Entity properties and quotas as Service Bus documents them, through the unmodified data and
 * administration clients.
 */

const running: { emulator: RunningEmulator; clients: ServiceBusClient[] }[] = [];
afterEach(async () => {
  for (const { emulator, clients } of running.splice(0)) {
    for (const client of clients) await client.close();
    await emulator.stop();
  }
});

async function start(options: Partial<Parameters<typeof startEmulator>[0]> = {}) {
  const emulator = await startEmulator({ port: 0, ...options });
  const clients: ServiceBusClient[] = [];
  running.push({ emulator, clients });
  const client = () => {
    const c = new ServiceBusClient(emulator.connectionString, {
      retryOptions: { maxRetries: 0, timeoutInMs: 5_000 },
    });
    clients.push(c);
    return c;
  };
  const admin = new ServiceBusAdministrationClient(emulator.connectionString, {
    tlsOptions: { ca: emulator.caPem! },
    retryOptions: { maxRetries: 0 },
  } as never);
  return { emulator, client, admin };
}

const kib = (n: number) => Buffer.alloc(n * 1024, 7);

describe('message size per tier', () => {
  it('Standard refuses a single message over 256 KB, and a batch the SDK sizes by the link', async () => {
    const { client, admin } = await start();
    await admin.createTopic('t');
    await admin.createSubscription('t', 's');
    const sender = client().createSender('t');
    await sender.sendMessages({ body: kib(200) });
    await expect(sender.sendMessages({ body: kib(300) })).rejects.toThrow(
      /exceeds the limit of 262144 bytes/,
    );
    await expect(sender.sendMessages({ body: kib(1100) })).rejects.toThrow(/exceeds the limit/);
    const batch = await sender.createMessageBatch();
    expect(batch.maxSizeInBytes).toBe(256 * 1024);
    expect((await admin.getTopic('t')).maxMessageSizeInKilobytes).toBe(256);
    const received = await client()
      .createReceiver('t', 's', { receiveMode: 'receiveAndDelete' })
      .receiveMessages(5, { maxWaitTimeInMs: 2_000 });
    expect(received).toHaveLength(1);
  });

  it('Premium takes 1 MB by default and an entity may raise it; Standard refuses the setting', async () => {
    const { client, admin } = await start({ tier: 'premium' });
    await admin.createTopic('default');
    await admin.createTopic('large', { maxMessageSizeInKilobytes: 4096 });
    await admin.createSubscription('large', 's');
    await expect(
      client()
        .createSender('default')
        .sendMessages({ body: kib(1100) }),
    ).rejects.toThrow(/1048576 bytes/);
    await client()
      .createSender('large')
      .sendMessages({ body: kib(3000) });
    expect((await admin.getTopic('large')).maxMessageSizeInKilobytes).toBe(4096);
    const standard = await start();
    await expect(standard.admin.createTopic('x', { maxMessageSizeInKilobytes: 4096 })).rejects.toThrow(
      /Premium/,
    );
  });
});

describe('quotas', () => {
  it('refuses entities and subscriptions past the quota, and a connection past the connection quota', async () => {
    const { client, admin } = await start({
      quotas: { maxEntities: 2, maxSubscriptionsPerTopic: 1, maxConnections: 2 },
    });
    await admin.createTopic('a');
    await admin.createTopic('b');
    await expect(admin.createTopic('c')).rejects.toThrow(/quota is 2/);
    await admin.createSubscription('a', 's1');
    await expect(admin.createSubscription('a', 's2')).rejects.toThrow(/quota is 1/);
    await client().createSender('a').sendMessages({ body: 1 });
    await client().createSender('a').sendMessages({ body: 2 });
    await expect(client().createSender('a').sendMessages({ body: 3 })).rejects.toThrow(/quota is 2/);
  });
});

describe('time to live', () => {
  it('an expired message is not delivered; with dead-lettering on expiration it is in the dead-letter queue', async () => {
    const { client, admin } = await start();
    await admin.createTopic('t');
    await admin.createSubscription('t', 'drop');
    await admin.createSubscription('t', 'keep', { deadLetteringOnMessageExpiration: true });
    await admin.createSubscription('t', 'short', { defaultMessageTimeToLive: 'PT1S' });
    const sb = client();
    await sb.createSender('t').sendMessages([
      { body: 'expires', messageId: 'e', timeToLive: 300 },
      { body: 'lives', messageId: 'l' },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const receive = (name: string) =>
      sb
        .createReceiver('t', name, { receiveMode: 'receiveAndDelete' })
        .receiveMessages(5, { maxWaitTimeInMs: 2_000 });
    expect((await receive('drop')).map((m) => m.body)).toEqual(['lives']);
    expect((await receive('keep')).map((m) => m.body)).toEqual(['lives']);
    expect(await receive('short')).toEqual([]);
    const [dead] = await sb
      .createReceiver('t', 'keep', { subQueueType: 'deadLetter' })
      .receiveMessages(1, { maxWaitTimeInMs: 1_000 });
    expect(dead).toMatchObject({ body: 'expires', deadLetterReason: 'TTLExpiredException' });
    expect((await admin.getSubscription('t', 'keep')).deadLetteringOnMessageExpiration).toBe(true);
    expect((await admin.getSubscription('t', 'short')).defaultMessageTimeToLive).toBe('PT1S');
  });
});

describe('duplicate detection', () => {
  it('drops a message whose id was sent within the window (the send succeeds), and keeps new ids', async () => {
    const { client, admin } = await start();
    await admin.createTopic('t', {
      requiresDuplicateDetection: true,
      duplicateDetectionHistoryTimeWindow: 'PT1M',
    });
    await admin.createSubscription('t', 's');
    const sender = client().createSender('t');
    await sender.sendMessages({ body: 1, messageId: 'order-1' });
    await sender.sendMessages({ body: 2, messageId: 'order-1' });
    await sender.sendMessages([
      { body: 3, messageId: 'order-2' },
      { body: 4, messageId: 'order-2' },
    ]);
    const received = await client()
      .createReceiver('t', 's', { receiveMode: 'receiveAndDelete' })
      .receiveMessages(10, { maxWaitTimeInMs: 2_000 });
    expect(received.map((m) => m.body)).toEqual([1, 3]);
    expect(await admin.getTopic('t')).toMatchObject({
      requiresDuplicateDetection: true,
      duplicateDetectionHistoryTimeWindow: 'PT1M',
    });
    await expect(
      admin.createTopic('u', {
        requiresDuplicateDetection: true,
        duplicateDetectionHistoryTimeWindow: 'PT5S',
      }),
    ).rejects.toThrow(/between 20 s/);
  });
});

describe('lock duration bounds', () => {
  it('refuses a lock duration under 5 s or over 5 minutes', async () => {
    const { admin } = await start();
    await admin.createTopic('t');
    await expect(admin.createSubscription('t', 'fast', { lockDuration: 'PT1S' })).rejects.toThrow(
      /LockDuration must be between 5 s and 300 s/,
    );
    await expect(admin.createSubscription('t', 'slow', { lockDuration: 'PT6M' })).rejects.toThrow(
      /LockDuration/,
    );
    expect((await admin.createSubscription('t', 'ok', { lockDuration: 'PT5S' })).lockDuration).toBe('PT5S');
  });
});
