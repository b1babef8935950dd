import { describe, expect, it } from 'vitest';
import type { SubscriptionStore } from '../contracts/subscription-store.js';
import type { ConformanceStoreFactory } from './factory.js';
import { storeOpener } from './harness.js';

export function describeSubscriptionStoreConformance(
  providerName: string,
  factory: ConformanceStoreFactory<SubscriptionStore>,
): void {
  describe(`SubscriptionStore conformance [${providerName}]`, () => {
    const open = storeOpener(factory);
    const subscribe = (
      store: SubscriptionStore,
      ep: string,
      mail = 'ops@example.com',
      eventTypes = ['OrderPlaced'],
      payload = '',
    ) =>
      store.subscribeToEndpointNotification({
        endpointId: ep,
        mail,
        type: 'mail',
        author: 'alice',
        url: 'https://ops',
        eventTypes,
        payload,
        frequency: 15,
      });

    it('subscribe then list round-trips', async () => {
      const { store, id } = await open();
      const created = await subscribe(store, id('ep'));
      expect(created.id).not.toBe('');
      expect(created).toMatchObject({ endpointId: id('ep'), mail: 'ops@example.com', authorId: 'alice' });
      const listed = await store.getSubscriptionsOnEndpoint(id('ep'));
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({
        id: created.id,
        eventTypes: ['OrderPlaced'],
        frequency: 15,
        url: 'https://ops',
      });
      expect(await store.getSubscriptionsOnEndpoint(id('other'))).toHaveLength(0);
    });

    it('keeps the alert settings as given, through updates that leave them out', async () => {
      const { store, id } = await open();
      const alert = {
        triggers: ['NewFailureGroup', 'SessionBlocked'],
        blockedMinutes: 15,
        webhookSecret: 'shared-secret-of-16+',
        createdAt: '2026-01-01T00:00:00.000Z',
      };
      const created = await store.subscribeToEndpointNotification({
        endpointId: id('ep'),
        mail: '',
        type: 'webhook',
        author: 'alice',
        url: 'https://hooks.example/alerts',
        eventTypes: [],
        payload: '',
        frequency: 0,
        alert,
      });
      expect(created.alert).toEqual(alert);
      expect((await store.getSubscriptionsOnEndpoint(id('ep')))[0]?.alert).toEqual(alert);
      const { alert: _omitted, ...withoutAlert } = created;
      expect(await store.updateSubscription({ ...withoutAlert, url: 'https://hooks.example/v2' })).toBe(true);
      expect((await store.getSubscriptionsOnEndpoint(id('ep')))[0]).toMatchObject({
        url: 'https://hooks.example/v2',
        alert,
      });
      expect(await store.updateSubscription({ ...created, alert: { ...alert, blockedMinutes: 30 } })).toBe(
        true,
      );
      expect((await store.getSubscriptionsOnEndpoint(id('ep')))[0]?.alert?.blockedMinutes).toBe(30);
      // A subscription made without alert settings reads null (or absent for rows stored before them).
      const plain = await subscribe(store, id('plain'));
      expect(plain.alert ?? null).toBeNull();
    });

    it('a reserved endpoint id is refused and nothing is stored', async () => {
      const { store } = await open();
      await expect(subscribe(store, 'subscriptions')).rejects.toMatchObject({ code: 'ReservedEndpointId' });
      expect(await store.getSubscriptionsOnEndpoint('subscriptions')).toEqual([]);
    });

    it('updateSubscription persists changes; an unknown id returns false', async () => {
      const { store, id } = await open();
      const created = await subscribe(store, id('ep'));
      const changed = {
        ...created,
        mail: 'new@example.com',
        url: 'https://new',
        eventTypes: ['A', 'B'],
        payload: 'x',
        frequency: 60,
      };
      expect(await store.updateSubscription(changed)).toBe(true);
      expect((await store.getSubscriptionsOnEndpoint(id('ep')))[0]).toMatchObject({
        mail: 'new@example.com',
        url: 'https://new',
        eventTypes: ['A', 'B'],
        payload: 'x',
        frequency: 60,
      });
      expect(await store.updateSubscription({ ...changed, id: id('missing') })).toBe(false);
    });

    it('unsubscribeById removes the subscription only when the endpoint matches', async () => {
      const { store, id } = await open();
      const created = await subscribe(store, id('ep'));
      expect(await store.unsubscribeById({ endpointId: id('other'), id: created.id })).toBe(false);
      expect(await store.unsubscribeById({ endpointId: id('ep'), id: created.id })).toBe(true);
      expect(await store.getSubscriptionsOnEndpoint(id('ep'))).toHaveLength(0);
    });

    it('unsubscribeByMail removes every matching subscription on the endpoint', async () => {
      const { store, id } = await open();
      await subscribe(store, id('ep'));
      await subscribe(store, id('ep'));
      await subscribe(store, id('ep'), 'keep@example.com');
      expect(await store.unsubscribeByMail({ endpointId: id('ep'), mail: 'ops@example.com' })).toBe(true);
      expect((await store.getSubscriptionsOnEndpoint(id('ep'))).map((s) => s.mail)).toEqual([
        'keep@example.com',
      ]);
      expect(await store.unsubscribeByMail({ endpointId: id('ep'), mail: 'ops@example.com' })).toBe(false);
    });

    it('deleteSubscription removes by global id', async () => {
      const { store, id } = await open();
      const created = await subscribe(store, id('ep'));
      expect(await store.deleteSubscription(created.id)).toBe(true);
      expect(await store.getSubscriptionsOnEndpoint(id('ep'))).toHaveLength(0);
      expect(await store.deleteSubscription(created.id)).toBe(false);
    });

    it('getSubscriptionsOnEndpointWithEventtype filters by event type and payload', async () => {
      const { store, id } = await open();
      const ep = id('ep');
      const any = await subscribe(store, ep, 'any@x', []);
      const typed = await subscribe(store, ep, 'typed@x', ['OrderPlaced']);
      const other = await subscribe(store, ep, 'other@x', ['Other']);
      const keyed = await subscribe(store, ep, 'keyed@x', [], 'timeout');
      const ids = async (type: string, payload: string, errorText: string) =>
        (
          await store.getSubscriptionsOnEndpointWithEventtype({
            endpointId: ep,
            eventType: type,
            payload,
            errorText,
          })
        )
          .map((s) => s.id)
          .sort();
      expect(await ids('OrderPlaced', '{}', 'boom')).toEqual([any.id, typed.id].sort());
      expect(await ids('OrderPlaced', '{}', 'db timeout')).toEqual([any.id, typed.id, keyed.id].sort());
      expect(await ids('Other', '{"x":"timeout"}', '')).toEqual([any.id, other.id, keyed.id].sort());
    });
  });
}
