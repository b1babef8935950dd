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
import { decodeDocument, encodeDocument } from './document-codec.js';
import type { StoreContext } from './store-context.js';

/** Operator notification subscriptions: one document per subscription. */
export class SqlSubscriptionStore implements SubscriptionStore {
  constructor(private readonly context: StoreContext) {}

  private get db() {
    return this.context.dialect.db;
  }

  async subscribeToEndpointNotification(write: EndpointSubscriptionWrite): Promise<EndpointSubscription> {
    assertValidStoreEndpointId(write.endpointId);
    const subscription = newEndpointSubscription(write);
    await this.db
      .insertInto('endpoint_subscriptions')
      .values({
        id: subscription.id,
        endpoint_id: write.endpointId,
        mail: write.mail,
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
    query: SubscriptionFailureQuery,
  ): Promise<EndpointSubscription[]> {
    return subscriptionsWantingFailure(await this.getSubscriptionsOnEndpoint(query.endpointId), query);
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

  async unsubscribeById({ endpointId, id }: SubscriptionRef): Promise<boolean> {
    const result = await this.db
      .deleteFrom('endpoint_subscriptions')
      .where('endpoint_id', '=', endpointId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async unsubscribeByMail({ endpointId, mail }: SubscriptionMailRef): Promise<boolean> {
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
