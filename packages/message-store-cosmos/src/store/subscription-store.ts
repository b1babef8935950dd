import type {
  EndpointSubscription,
  EndpointSubscriptionWrite,
  SubscriptionFailureQuery,
  SubscriptionMailRef,
  SubscriptionRef,
  SubscriptionStore,
} from '@nimbus/message-store';
import {
  assertValidStoreEndpointId,
  newEndpointSubscription,
  subscriptionsWantingFailure,
  withSubscriptionUpdate,
} from '@nimbus/message-store/provider';
import { type CosmosStoreContext, queryAll } from './cosmos-context.js';
import { isCosmosStatus } from './cosmos-errors.js';

type Stored = EndpointSubscription & { readonly _etag?: string };

function strip(doc: Stored): EndpointSubscription {
  const copy: Record<string, unknown> = { ...doc };
  for (const key of Object.keys(copy)) if (key.startsWith('_')) delete copy[key];
  return copy as unknown as EndpointSubscription;
}

/** Notification subscriptions in `subscriptions`, partitioned by endpoint (id = the subscription id). */
export class CosmosSubscriptionStore implements SubscriptionStore {
  constructor(private readonly context: CosmosStoreContext) {}

  get #container() {
    return this.context.container('subscriptions');
  }

  async #byId(id: string): Promise<Stored | null> {
    if (!id) return null;
    const [found] = await queryAll<Stored>(this.#container, 'SELECT * FROM c WHERE c.id = @id', [
      { name: '@id', value: id },
    ]);
    return found ?? null;
  }

  async #delete(subscription: Stored): Promise<boolean> {
    try {
      await this.#container.item(subscription.id, subscription.endpointId).delete();
      return true;
    } catch (error) {
      if (isCosmosStatus(error, 404)) return false;
      throw error;
    }
  }

  async subscribeToEndpointNotification(write: EndpointSubscriptionWrite): Promise<EndpointSubscription> {
    assertValidStoreEndpointId(write.endpointId);
    const subscription = newEndpointSubscription(write);
    await this.#container.items.create(subscription);
    return subscription;
  }

  async getSubscriptionsOnEndpoint(endpointId: string): Promise<EndpointSubscription[]> {
    const docs = await queryAll<Stored>(this.#container, 'SELECT * FROM c WHERE c.endpointId = @e', [
      { name: '@e', value: endpointId },
    ]);
    return docs.map(strip);
  }

  async getSubscriptionsOnEndpointWithEventtype(
    query: SubscriptionFailureQuery,
  ): Promise<EndpointSubscription[]> {
    return subscriptionsWantingFailure(await this.getSubscriptionsOnEndpoint(query.endpointId), query);
  }

  async updateSubscription(subscription: EndpointSubscription): Promise<boolean> {
    const stored = await this.#byId(subscription.id);
    if (stored === null) return false;
    await this.#container
      .item(stored.id, stored.endpointId)
      .replace(withSubscriptionUpdate(strip(stored), subscription));
    return true;
  }

  async unsubscribeById({ endpointId, id }: SubscriptionRef): Promise<boolean> {
    const stored = await this.#byId(id);
    if (stored === null || stored.endpointId !== endpointId) return false;
    return this.#delete(stored);
  }

  async unsubscribeByMail({ endpointId, mail }: SubscriptionMailRef): Promise<boolean> {
    const matching = await queryAll<Stored>(
      this.#container,
      'SELECT * FROM c WHERE c.endpointId = @e AND c.mail = @m',
      [
        { name: '@e', value: endpointId },
        { name: '@m', value: mail },
      ],
    );
    for (const s of matching) await this.#delete(s);
    return matching.length > 0;
  }

  async deleteSubscription(subscriptionId: string): Promise<boolean> {
    const stored = await this.#byId(subscriptionId);
    return stored === null ? false : this.#delete(stored);
  }
}
