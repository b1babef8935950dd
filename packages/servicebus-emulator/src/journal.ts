import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { TopicProperties } from './broker/entity-properties.js';
import type { Namespace } from './broker/namespace.js';
import type { SubscriptionProperties } from './broker/subscription.js';
import type { RuleDefinition } from './rules/rule.js';

interface JournalFile {
  readonly version: 1;
  readonly queues?: {
    readonly name: string;
    readonly topicProperties: TopicProperties;
    readonly properties: SubscriptionProperties;
  }[];
  readonly topics: {
    readonly name: string;
    readonly properties?: TopicProperties;
    readonly subscriptions: {
      readonly name: string;
      readonly properties: SubscriptionProperties;
      readonly rules: RuleDefinition[];
    }[];
  }[];
}

/** Writes the topology (never messages) so a restarted emulator has the same entities. */
export function writeJournal(path: string, namespace: Namespace, log?: (line: string) => void): void {
  const file: JournalFile = {
    version: 1,
    queues: [...namespace.queues.values()].map((topic) => ({
      name: topic.name,
      topicProperties: topic.properties,
      properties: namespace.queue(topic.name).subscription.properties,
    })),
    topics: [...namespace.topics.values()].map((topic) => ({
      name: topic.name,
      properties: topic.properties,
      subscriptions: [...topic.subscriptions.values()].map((s) => ({
        name: s.name,
        properties: s.properties,
        rules: [...s.rules.values()].map((r) => r.definition),
      })),
    })),
  };
  try {
    writeFileSync(`${path}.tmp`, JSON.stringify(file, null, 2));
    renameSync(`${path}.tmp`, path);
  } catch (error) {
    log?.(
      `could not write the topology journal ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

export function loadJournal(path: string, namespace: Namespace): void {
  if (!existsSync(path)) return;
  const file = JSON.parse(readFileSync(path, 'utf8')) as JournalFile;
  if (file.version !== 1)
    throw new Error(`topology journal ${path} has unknown version ${String(file.version)}`);
  for (const queue of file.queues ?? [])
    namespace.createQueue(queue.name, queue.topicProperties, queue.properties);
  for (const topic of file.topics) {
    namespace.createTopic(topic.name, topic.properties);
    for (const entry of topic.subscriptions) {
      const subscription = namespace.createSubscription(topic.name, entry.name, entry.properties);
      subscription.removeRule('$Default');
      for (const rule of entry.rules) subscription.addRule(rule);
    }
  }
}
