import type { Namespace } from '../broker/namespace.js';
import { DEFAULT_RULE } from '../rules/rule.js';
import { BrokerError, Condition, notImplemented } from '../wire/errors.js';
import { parseDescription, ruleDefinition, subscriptionProperties, topicProperties } from './atom-parse.js';
import { document, escapeXml, feed, ruleEntry, subscriptionEntry, topicEntry } from './atom-render.js';
import { isQueueCreate, queueEntry, queueRoute } from './queue-routes.js';

export interface AdminRequest {
  readonly method: string;
  readonly url: URL;
  readonly ifMatch: string | undefined;
  readonly body: string;
}

export interface AdminResponse {
  readonly status: number;
  readonly body: string;
}

export const ok = (xml: string, status = 200): AdminResponse => ({ status, body: document(xml) });

export function errorResponse(error: BrokerError): AdminResponse {
  const status = error.condition === Condition.notFound ? 404 : error.status;
  return {
    status,
    body: `<Error><Code>${status}</Code><Detail>${escapeXml(error.message)}</Detail></Error>`,
  };
}

function page<T>(items: T[], url: URL): T[] {
  const skip = Number(url.searchParams.get('$skip') ?? 0);
  const top = Number(url.searchParams.get('$top') ?? 100);
  return items.slice(skip, skip + top);
}

/** The Atom management API for topics, subscriptions and rules (what ServiceBusAdministrationClient calls). */
export async function handleAdmin(namespace: Namespace, request: AdminRequest): Promise<AdminResponse> {
  const base = `${request.url.protocol}//${request.url.host}`;
  const parts = decodeURIComponent(request.url.pathname).split('/').filter(Boolean);
  const empty = () => ok(feed(`${base}${request.url.pathname}`, 'Publicly Listed Services', []));
  const { method } = request;
  if (parts[0]?.toLowerCase() === '$resources') {
    if (parts[1]?.toLowerCase() === 'queues' && method === 'GET') {
      const queues = page([...namespace.queues.values()], request.url);
      return ok(
        feed(
          `${base}/$Resources/Queues`,
          'Queues',
          queues.map((q) => queueEntry(base, namespace, q.name)),
        ),
      );
    }
    if (parts[1]?.toLowerCase() === 'topics' && method === 'GET') {
      return ok(
        feed(
          `${base}/$Resources/Topics`,
          'Topics',
          page([...namespace.topics.values()], request.url).map((t) =>
            topicEntry(base, t, namespace.maxMessageBytes(t)),
          ),
        ),
      );
    }
    throw notImplemented(`${method} /$Resources/${parts[1] ?? ''}`);
  }
  const [topicName, subscriptions, subscriptionName, rules, ruleName] = parts;
  if (!topicName) throw notImplemented('namespace properties');
  if (
    parts.length === 1 &&
    (namespace.queues.has(topicName.toLowerCase()) || isQueueCreate(method, request.body))
  ) {
    return queueRoute(namespace, request, base, topicName);
  }
  if (parts.length === 1) {
    if (method === 'GET')
      return namespace.topics.has(topicName.toLowerCase())
        ? ok(
            topicEntry(
              base,
              namespace.topic(topicName),
              namespace.maxMessageBytes(namespace.topic(topicName)),
            ),
          )
        : empty();
    if (method === 'PUT') {
      const description = await parseDescription(request.body, 'TopicDescription');
      if (request.ifMatch === '*') throw notImplemented('updating a topic');
      const created = namespace.createTopic(topicName, topicProperties(description, namespace));
      return ok(topicEntry(base, created, namespace.maxMessageBytes(created)), 201);
    }
    if (method === 'DELETE') {
      namespace.deleteTopic(topicName);
      return { status: 200, body: '' };
    }
  }
  if (subscriptions?.toLowerCase() !== 'subscriptions')
    throw notImplemented(`${method} ${request.url.pathname}`);
  if (parts.length === 2 && method === 'GET') {
    const topic = namespace.topic(topicName);
    return ok(
      feed(
        `${base}/${topic.name}/Subscriptions`,
        'Subscriptions',
        page([...topic.subscriptions.values()], request.url).map((s) => subscriptionEntry(base, s)),
      ),
    );
  }
  if (parts.length === 3 && subscriptionName) {
    const exists = () =>
      namespace.topics.get(topicName.toLowerCase())?.subscriptions.has(subscriptionName.toLowerCase()) ??
      false;
    if (method === 'GET')
      return exists()
        ? ok(subscriptionEntry(base, namespace.subscription(topicName, subscriptionName)))
        : empty();
    if (method === 'PUT') {
      const description = await parseDescription(request.body, 'SubscriptionDescription');
      if (request.ifMatch === '*') throw notImplemented('updating a subscription');
      const properties = subscriptionProperties(
        description,
        namespace,
        `${topicName}/Subscriptions/${subscriptionName}`,
      );
      const defaultRule = description.DefaultRuleDescription
        ? ruleDefinition(
            String(description.DefaultRuleDescription.Name ?? '$Default'),
            description.DefaultRuleDescription,
          )
        : DEFAULT_RULE;
      const subscription = namespace.createSubscription(topicName, subscriptionName, properties);
      if (defaultRule !== DEFAULT_RULE) {
        subscription.removeRule('$Default');
        subscription.addRule(defaultRule);
      }
      return ok(subscriptionEntry(base, subscription), 201);
    }
    if (method === 'DELETE') {
      namespace.deleteSubscription(topicName, subscriptionName);
      return { status: 200, body: '' };
    }
  }
  if (rules?.toLowerCase() !== 'rules' || !subscriptionName)
    throw notImplemented(`${method} ${request.url.pathname}`);
  const subscription = namespace.subscription(topicName, subscriptionName);
  if (parts.length === 4 && method === 'GET') {
    return ok(
      feed(
        `${base}${request.url.pathname}`,
        'Rules',
        page([...subscription.rules.values()], request.url).map((r) => ruleEntry(base, subscription, r)),
      ),
    );
  }
  if (parts.length === 5 && ruleName) {
    const rule = subscription.rules.get(ruleName.toLowerCase());
    if (method === 'GET') return rule ? ok(ruleEntry(base, subscription, rule)) : empty();
    if (method === 'PUT') {
      if (request.ifMatch === '*') throw notImplemented('updating a rule');
      const created = subscription.addRule(
        ruleDefinition(ruleName, await parseDescription(request.body, 'RuleDescription')),
      );
      namespace.ruleChanged();
      return ok(ruleEntry(base, subscription, created), 201);
    }
    if (method === 'DELETE') {
      subscription.removeRule(ruleName);
      namespace.ruleChanged();
      return { status: 200, body: '' };
    }
  }
  throw new BrokerError(
    Condition.invalidField,
    `${method} ${request.url.pathname} is not a management operation`,
  );
}
