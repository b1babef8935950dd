import { type DeadLetteredMessage, Header, RESOLVER_INPUT, type Transport } from '@nimbus/core';
import { MessageAuditType } from '@nimbus/message-store';
import { Command } from 'commander';
import { openStore } from '../backends/open-store.js';
import { openTransport } from '../backends/open-transport.js';
import { createCliLogger } from '../cli-logger.js';
import type { NimbusConfig } from '../config.js';
import { CliError, notFound, usageError } from '../exit-codes.js';
import { cliAuditorName } from '../operator-name.js';
import { configFrom, requireSharedBackends, withBackendOptions } from './backend-options.js';

/** How many dead letters one command reads from the transport at most. */
const MAX_DEAD_LETTERS = 500;

interface Backends {
  dataDir?: string;
  store?: string;
  transport?: string;
  json?: boolean;
}

/** The key audit rows of an input's dead-letter actions are filed under (the WebApp uses the same). */
function auditKeyOf(input: string): string {
  return `dead-letters/${input}`;
}

export async function withTransport<T>(
  options: Backends,
  action: string,
  input: string,
  work: (transport: Transport) => Promise<T>,
) {
  const config = configFrom(options);
  requireSharedBackends(config, action);
  const transport = await openTransport(config, { migrationMode: 'VerifyOnly' });
  try {
    // An input the transport does not have is "not found" (exit 4), not an empty list or a failure.
    if (input !== RESOLVER_INPUT && !(await transport.getTopology()).endpoints.includes(input)) {
      throw notFound(
        `No input '${input}' on the ${config.transport} transport (an endpoint id, or 'Resolver').`,
      );
    }
    return await work(transport);
  } finally {
    await transport.close();
  }
}

/** Writes the one audit row of an input action to the message store, like every CLI operator action. */
export async function audit(
  config: NimbusConfig,
  type: MessageAuditType,
  input: string,
  data: Record<string, unknown>,
  key = auditKeyOf(input),
) {
  const store = await openStore(config, { logger: createCliLogger(), migrationMode: 'VerifyOnly' });
  try {
    await store.storeMessageAudit({
      eventId: key,
      audit: {
        auditorName: cliAuditorName(),
        auditTimestamp: new Date(),
        auditType: type,
        comment: typeof data.comment === 'string' ? data.comment : null,
        data: JSON.stringify({ ...data, input, via: 'cli' }).slice(0, 4096),
        eventId: key,
        endpointId: input === RESOLVER_INPUT ? null : input,
      },
      endpointId: input === RESOLVER_INPUT ? null : input,
      eventTypeId: null,
    });
  } finally {
    await store.close();
  }
}

function line(dead: DeadLetteredMessage): string {
  return [
    dead.deadLetteredAt.toISOString(),
    dead.id,
    (dead.sessionId || '-').padEnd(16),
    (dead.headers[Header.MessageType] ?? '-').padEnd(14),
    (dead.headers[Header.EventId] ?? '-').padEnd(12),
    dead.reason,
  ].join('  ');
}

export function deadLettersCommand(print: (line: string) => void): Command {
  const group = new Command('dead-letters').description(
    "Inspect and fix the transport's dead-letter lists (messages it could not deliver as events).",
  );

  const list = group
    .command('list')
    .description("List an input's dead letters, oldest first, with their reasons.")
    .argument('<input>', "endpoint id, or 'Resolver'")
    .option('--json', 'one JSON array for scripts');
  withBackendOptions(list).action(async (input: string, options: Backends) => {
    const found = await withTransport(options, 'dead-letters list', input, (t) =>
      t.peekDeadLetters(input, MAX_DEAD_LETTERS),
    );
    if (options.json) print(JSON.stringify(found));
    else if (found.length === 0) print(`No dead letters at ${input}.`);
    else for (const dead of found) print(line(dead));
  });

  const show = group
    .command('show')
    .description('Show one dead letter: reason, description, headers and body.')
    .argument('<input>', "endpoint id, or 'Resolver'")
    .argument('<id>', 'dead-letter id (from list)')
    .option('--json', 'JSON for scripts');
  withBackendOptions(show).action(async (input: string, id: string, options: Backends) => {
    const found = await withTransport(options, 'dead-letters show', input, (t) =>
      t.peekDeadLetters(input, MAX_DEAD_LETTERS),
    );
    const dead = found.find((d) => d.id === id);
    if (!dead)
      throw new CliError(
        `No dead letter '${id}' at '${input}' (requeued, purged, or not among the newest ${MAX_DEAD_LETTERS}).`,
      );
    if (options.json) {
      print(JSON.stringify(dead));
      return;
    }
    print(`Dead letter ${dead.id} at ${dead.input}: ${dead.reason}`);
    if (dead.description) print(`  description: ${dead.description}`);
    print(
      `  message ${dead.messageId}, session ${dead.sessionId || '-'}, correlation ${dead.correlationId ?? '-'}`,
    );
    print(`  delivered ${dead.deliveryCount} times, dead-lettered ${dead.deadLetteredAt.toISOString()}`);
    print(`  headers: ${JSON.stringify(dead.headers)}`);
    print(`  body: ${dead.body}`);
  });

  const requeue = group
    .command('requeue')
    .description(
      'Move dead letters (the given ids, or all with --all) back to the input, into their sessions.',
    )
    .argument('<input>', "endpoint id, or 'Resolver'")
    .argument('[ids...]', 'dead-letter ids')
    .option('--all', 'every dead letter of the input')
    .option('--comment <text>', 'note stored on the audit row');
  withBackendOptions(requeue).action(
    async (input: string, ids: string[], options: Backends & { all?: boolean; comment?: string }) => {
      if (ids.length === 0 && !options.all) throw usageError('Give dead-letter ids, or --all.');
      if (ids.length > 0 && options.all) throw usageError('Give dead-letter ids or --all, not both.');
      const requeued = await withTransport(options, 'dead-letters requeue', input, (t) =>
        t.requeueDeadLetters(input, options.all ? undefined : ids),
      );
      await audit(configFrom(options), MessageAuditType.RequeueDeadLetters, input, {
        action: 'requeueDeadLetters',
        ids: options.all ? 'all' : ids,
        requeued,
        comment: options.comment,
      });
      print(
        `Requeued ${requeued} dead letter${requeued === 1 ? '' : 's'} at ${input}; audited as ${cliAuditorName()}`,
      );
    },
  );

  const purge = group
    .command('purge')
    .description('Delete every dead letter of the input for good.')
    .argument('<input>', "endpoint id, or 'Resolver'")
    .option('--yes', 'confirm: the messages cannot be recovered')
    .option('--comment <text>', 'note stored on the audit row');
  withBackendOptions(purge).action(
    async (input: string, options: Backends & { yes?: boolean; comment?: string }) => {
      if (!options.yes) throw usageError('purge deletes the dead letters for good; confirm with --yes.');
      const purged = await withTransport(options, 'dead-letters purge', input, (t) =>
        t.purge(input, 'deadLettered'),
      );
      await audit(configFrom(options), MessageAuditType.PurgeDeadLetters, input, {
        action: 'purgeDeadLetters',
        purged,
        comment: options.comment,
      });
      print(
        `Purged ${purged} dead letter${purged === 1 ? '' : 's'} at ${input}; audited as ${cliAuditorName()}`,
      );
    },
  );

  return group;
}
