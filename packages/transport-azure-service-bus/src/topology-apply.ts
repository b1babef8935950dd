import type { CorrelationRuleFilter, ServiceBusAdministrationClient } from '@azure/service-bus';
import { RESOLVER_INPUT, type Route, type Topology, type TopologyChanges } from '@nimbus/core';
import { diffTopology, routeKey } from '@nimbus/core/transport-spi';
import { guarded } from './errors.js';
import {
  DIRECT_RULE,
  INPUT_PROPERTY,
  inputsOf,
  parkedOf,
  ROUTE_EVENT_PROPERTY,
  ROUTE_RULE_PREFIX,
  ROUTE_SOURCE_PROPERTY,
  routeRuleName,
  sqlString,
} from './names.js';

export interface SubscriptionSettings {
  readonly lockDurationMs: number;
  readonly maxDeliveryCount: number;
}

function isoDuration(ms: number): string {
  return `PT${ms / 1000}S`;
}

async function collect<T>(pages: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of pages) items.push(item);
  return items;
}

/** Reads the applied topology back from the namespace: topics are endpoints, route rules are routes. */
export async function readTopology(admin: ServiceBusAdministrationClient): Promise<Topology> {
  return guarded('read topology', async () => {
    const topics = (await collect(admin.listTopics())).map((t) => t.name);
    const endpoints = topics.filter((name) => name !== RESOLVER_INPUT).sort();
    const routes: Route[] = [];
    for (const endpoint of endpoints) {
      if (!(await admin.subscriptionExists(endpoint, endpoint))) continue;
      for (const rule of await collect(admin.listRules(endpoint, endpoint))) {
        if (!rule.name.startsWith(ROUTE_RULE_PREFIX)) continue;
        const properties = (rule.filter as CorrelationRuleFilter).applicationProperties ?? {};
        routes.push({
          source: String(properties[ROUTE_SOURCE_PROPERTY]),
          eventTypeId: String(properties[ROUTE_EVENT_PROPERTY]),
          target: endpoint,
        });
      }
    }
    routes.sort((a, b) => routeKey(a).localeCompare(routeKey(b)));
    return { endpoints, routes };
  });
}

async function ensureSubscription(
  admin: ServiceBusAdministrationClient,
  topic: string,
  name: string,
  settings: SubscriptionSettings,
): Promise<void> {
  if (await admin.subscriptionExists(topic, name)) return;
  await admin.createSubscription(topic, name, {
    requiresSession: true,
    lockDuration: isoDuration(settings.lockDurationMs),
    maxDeliveryCount: settings.maxDeliveryCount,
    defaultRuleOptions: {
      name: DIRECT_RULE,
      // Direct deliveries only: a route copy needs its route rule.
      filter: {
        sqlExpression: `${INPUT_PROPERTY} = ${sqlString(name)} AND ${ROUTE_SOURCE_PROPERTY} IS NULL`,
      },
    },
  });
}

/** A topic per endpoint (and the Resolver's), a session subscription per input and per parked line. */
async function ensureEndpoint(
  admin: ServiceBusAdministrationClient,
  endpoint: string,
  settings: SubscriptionSettings,
): Promise<void> {
  if (!(await admin.topicExists(endpoint))) await admin.createTopic(endpoint);
  for (const input of inputsOf(endpoint)) {
    await ensureSubscription(admin, endpoint, input, settings);
    await ensureSubscription(admin, endpoint, parkedOf(input), settings);
  }
}

/**
 * Provisions `desired` idempotently and reports what changed. Removing an endpoint deletes its topic (with its
 * messages): Service Bus keeps nothing of an entity once it is gone, so the change is reported and logged.
 */
export async function applyTopology(
  admin: ServiceBusAdministrationClient,
  desired: Topology,
  settings: SubscriptionSettings,
): Promise<TopologyChanges> {
  const current = await readTopology(admin);
  const changes = diffTopology(current, desired);
  await guarded('apply topology', async () => {
    for (const endpoint of [...desired.endpoints, RESOLVER_INPUT])
      await ensureEndpoint(admin, endpoint, settings);
    for (const route of changes.addedRoutes) {
      const name = routeRuleName(route);
      if (await admin.ruleExists(route.target, route.target, name)) continue;
      await admin.createRule(route.target, route.target, name, {
        applicationProperties: {
          [INPUT_PROPERTY]: route.target,
          [ROUTE_SOURCE_PROPERTY]: route.source,
          [ROUTE_EVENT_PROPERTY]: route.eventTypeId,
        },
      });
    }
    for (const route of changes.removedRoutes) {
      const name = routeRuleName(route);
      if (await admin.ruleExists(route.target, route.target, name))
        await admin.deleteRule(route.target, route.target, name);
    }
    for (const endpoint of changes.removedEndpoints) {
      if (await admin.topicExists(endpoint)) await admin.deleteTopic(endpoint);
    }
  });
  return changes;
}
