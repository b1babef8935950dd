import {
  type EndpointSubscription,
  newEndpointSubscription,
  type SubscriptionStore,
  subscriptionWantsFailure,
  withSubscriptionUpdate,
} from '@nimbus/message-store';
import { decodeDocument, encodeDocument } from './document-codec.js';
import type { StoreContext } from './store-context.js';

/** Operator notification subscriptions: one document per subscription. */
export class SqlSubscriptionStore implements SubscriptionStore {
  constructor(private readonly context: StoreContext) {}

  private get db() {
    return this.context.dialect.db;
  }

  async subscribeToEndpointNotification(
    endpointId: string,
    mail: string,
    type: string,
    author: string,
    url: string,
    eventTypes: readonly string[],
    payload: string,
    frequency: number,
  ): Promise<EndpointSubscription> {
    const subscription = newEndpointSubscription(
      endpointId,
      mail,
      type,
      author,
      url,
      eventTypes,
      payload,
      frequency,
    );
    await this.db
      .insertInto('endpoint_subscriptions')
      .values({
        id: subscription.id,
        endpoint_id: endpointId,
        mail,
        document_json: encodeDocument(subscription),
      })
      .execute();
    return subscription;
  }

  async getSubscriptionsOnEndpoint(endpointId: string): Promise<EndpointSubscription[]> {
    const rows = await this.db
      .selectFrom('endpoint_subscriptions')
      .select('document_json')
      .where('endpoint_id', '=', endpointId)
      .orderBy('id')
      .execute();
    return rows.map((r) => decodeDocument<EndpointSubscription>(r.document_json));
  }

  async getSubscriptionsOnEndpointWithEventtype(
    endpointId: string,
    eventType: string,
    payload: string,
    errorText: string,
  ): Promise<EndpointSubscription[]> {
    const all = await this.getSubscriptionsOnEndpoint(endpointId);
    return all.filter((s) => subscriptionWantsFailure(s, eventType, payload, errorText));
  }

  async updateSubscription(subscription: EndpointSubscription): Promise<boolean> {
    return this.context.dialect.atomic(async (tx) => {
      const row = await tx
        .selectFrom('endpoint_subscriptions')
        .select('document_json')
        .where('id', '=', subscription.id)
        .executeTakeFirst();
      if (row === undefined) return false;
      const updated = withSubscriptionUpdate(
        decodeDocument<EndpointSubscription>(row.document_json),
        subscription,
      );
      await tx
        .updateTable('endpoint_subscriptions')
        .set({ mail: updated.mail, document_json: encodeDocument(updated) })
        .where('id', '=', subscription.id)
        .execute();
      return true;
    });
  }

  async unsubscribeById(endpointId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('endpoint_subscriptions')
      .where('endpoint_id', '=', endpointId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async unsubscribeByMail(endpointId: string, mail: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('endpoint_subscriptions')
      .where('endpoint_id', '=', endpointId)
      .where('mail', '=', mail)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteSubscription(subscriptionId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('endpoint_subscriptions')
      .where('id', '=', subscriptionId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
