import type { SubscriptionStore } from '../contracts/subscription-store.js';
import { assertValidStoreEndpointId } from '../reserved-endpoint-ids.js';
import {
  newEndpointSubscription,
  subscriptionsWantingFailure,
  withSubscriptionUpdate,
} from '../subscription-rules.js';
import { clone, type MemoryState } from './state.js';

export function createMemorySubscriptions(state: MemoryState): SubscriptionStore {
  const onEndpoint = (endpointId: string) =>
    [...state.subscriptions.values()].filter((s) => s.endpointId === endpointId);

  return {
    async subscribeToEndpointNotification(write) {
      assertValidStoreEndpointId(write.endpointId);
      const subscription = newEndpointSubscription(write);
      state.subscriptions.set(subscription.id, subscription);
      return clone(subscription);
    },

    async getSubscriptionsOnEndpoint(endpointId) {
      return onEndpoint(endpointId).map(clone);
    },

    async getSubscriptionsOnEndpointWithEventtype(query) {
      return subscriptionsWantingFailure(onEndpoint(query.endpointId), query).map(clone);
    },

    async updateSubscription(subscription) {
      const stored = state.subscriptions.get(subscription.id);
      if (stored === undefined) return false;
      state.subscriptions.set(subscription.id, withSubscriptionUpdate(stored, subscription));
      return true;
    },

    async unsubscribeById({ endpointId, id }) {
      const stored = state.subscriptions.get(id);
      if (stored === undefined || stored.endpointId !== endpointId) return false;
      return state.subscriptions.delete(id);
    },

    async unsubscribeByMail({ endpointId, mail }) {
      const matching = onEndpoint(endpointId).filter((s) => s.mail === mail);
      for (const s of matching) state.subscriptions.delete(s.id);
      return matching.length > 0;
    },

    async deleteSubscription(subscriptionId) {
      return state.subscriptions.delete(subscriptionId);
    },
  };
}
