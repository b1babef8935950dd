import type {
  EndpointSubscription,
  NimBusMessageStore,
  SubscriptionAlertSettings,
} from '@nimbus/message-store';
import type { EndpointCatalog } from '../app/endpoint-catalog.js';

/** A store subscription that carries alert settings. */
export type AlertSubscription = EndpointSubscription & { readonly alert: SubscriptionAlertSettings };

export const ALERT_CHANNELS = ['webhook', 'mail'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

export function isAlertSubscription(s: EndpointSubscription): s is AlertSubscription {
  return s.alert !== undefined && s.alert !== null && (ALERT_CHANNELS as readonly string[]).includes(s.type);
}

/** Every alert subscription of the endpoints the catalog knows, read from the store's subscriptions. */
export async function listAlertSubscriptions(
  store: NimBusMessageStore,
  catalog: EndpointCatalog,
): Promise<AlertSubscription[]> {
  const all = await Promise.all(
    (await catalog.list()).map((endpointId) => store.getSubscriptionsOnEndpoint(endpointId)),
  );
  return all.flat().filter(isAlertSubscription);
}

/** The subscription's event-type and text filters, as the store's failure matching reads them. */
export function wantsFailure(
  s: EndpointSubscription,
  eventTypes: readonly (string | null)[],
  text: string,
): boolean {
  const typeOk = s.eventTypes.length === 0 || eventTypes.some((t) => t !== null && s.eventTypes.includes(t));
  return typeOk && (s.payload === '' || text.includes(s.payload));
}
