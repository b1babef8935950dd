import { isResolutionStatus, type ResolutionStatus, type UnresolvedEvent } from '@nimbus/message-store';
import { Command } from 'commander';
import { openStore } from '../backends/open-store.js';
import { openTransport } from '../backends/open-transport.js';
import { createCliLogger } from '../cli-logger.js';
import type { NimbusConfig } from '../config.js';
import { CliError, notFound, usageError } from '../exit-codes.js';
import {
  type ActionOutcome,
  CliOperatorActions,
  loadEvent,
  storedPayload,
} from '../operator/operator-actions.js';
import { assertPayloadMatchesSchema, recordedPlatform } from '../operator/recorded-platform.js';
import { cliAuditorName } from '../operator-name.js';
import { RemoteEvents, remoteActionLine, remoteSummaryLine } from '../remote/remote-events.js';
import { WebAppClient } from '../remote/webapp-client.js';
import { configFrom, requireSharedBackends, withBackendOptions } from './backend-options.js';
import { eventStateText, withState } from './event-state.js';
import { applyEdits, readPayload } from './payload-input.js';
import { PLATFORM_OPTION_HELP, platformFrom } from './platform-option.js';

interface Backends {
  dataDir?: string;
  store?: string;
  transport?: string;
  json?: boolean;
}

async function withStore<T>(
  config: NimbusConfig,
  work: (store: Awaited<ReturnType<typeof openStore>>) => Promise<T>,
) {
  const store = await openStore(config, { logger: createCliLogger(), migrationMode: 'VerifyOnly' });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

function summaryLine(row: UnresolvedEvent): string {
  return [
    row.updatedAt.toISOString(),
    row.endpointId.padEnd(12),
    eventStateText(row.resolutionStatus, row.retry).padEnd(12),
    (row.sessionId || '-').padEnd(16),
    (row.eventTypeId ?? '-').padEnd(20),
    row.eventId,
  ].join('  ');
}

function statuses(value: string | undefined): ResolutionStatus[] | null {
  if (!value) return null;
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const s of list) {
    if (!isResolutionStatus(s)) {
      throw usageError(
        `--status: unknown status '${s}' (Pending, Deferred, Failed, DeadLettered, Unsupported, Completed, Skipped).`,
      );
    }
  }
  return list as ResolutionStatus[];
}

function positiveInt(option: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000)
    throw usageError(`${option} must be 1..1000; got '${value}'.`);
  return n;
}

function actionLine(outcome: ActionOutcome): string {
  const verb =
    outcome.action === 'skip'
      ? 'Skipped'
      : outcome.action === 'resubmit'
        ? 'Resubmitted'
        : 'Resubmitted (edited payload)';
  return `${verb} event ${outcome.eventId} on ${outcome.endpointId} (session ${outcome.sessionId || '-'}); control message ${outcome.messageId}; audited as ${outcome.auditor}`;
}

/** `--endpoint` names no endpoint of the transport's topology (by prefix, as the store matches): exit 4. */
async function requireKnownEndpoint(config: NimbusConfig, prefix: string): Promise<void> {
  const transport = await openTransport(config, { migrationMode: 'VerifyOnly' });
  try {
    const { endpoints } = await transport.getTopology();
    const lower = prefix.toLowerCase();
    if (!endpoints.some((id) => id.toLowerCase().startsWith(lower)))
      throw notFound(
        `No endpoint '${prefix}' on the ${config.transport} transport (known: ${endpoints.join(', ') || 'none'}).`,
      );
  } finally {
    await transport.close();
  }
}

/** With NIMBUS_WEBAPP_URL (and NIMBUS_API_TOKEN) set, the commands go through that WebApp's API. */
function remoteEvents(): RemoteEvents | null {
  const client = WebAppClient.fromEnv();
  return client ? new RemoteEvents(client) : null;
}

export function eventsCommand(print: (line: string) => void): Command {
  const events = new Command('events').description(
    'Find, inspect and fix events in the message store, or in a remote WebApp when NIMBUS_WEBAPP_URL and NIMBUS_API_TOKEN are set.',
  );

  const list = events
    .command('list')
    .description('List events, newest change first.')
    .option('--endpoint <id>', 'only this endpoint (prefix match)')
    .option('--status <list>', 'comma-separated statuses, e.g. Failed,Deferred')
    .option('--session <id>', 'only this session (prefix match)')
    .option('--event-type <id>', 'only this event type')
    .option('--limit <n>', 'at most this many rows', '50')
    .option('--json', 'one JSON array for scripts');
  withBackendOptions(list).action(
    async (
      options: Backends & {
        endpoint?: string;
        status?: string;
        session?: string;
        eventType?: string;
        limit: string;
      },
    ) => {
      const remote = remoteEvents();
      if (remote) {
        const rows = await remote.list({ ...options, limit: positiveInt('--limit', options.limit) });
        if (options.json) print(JSON.stringify(rows.map((row) => withState(row, row.status))));
        else if (rows.length === 0) print('No events match.');
        else for (const row of rows) print(remoteSummaryLine(row));
        return;
      }
      const config = configFrom(options);
      requireSharedBackends(config, 'events list');
      const filter = {
        endpointId: options.endpoint ?? null,
        resolutionStatus: statuses(options.status),
        sessionId: options.session ?? null,
        eventTypeId: options.eventType ? [options.eventType] : null,
      };
      const limit = positiveInt('--limit', options.limit);
      const found = await withStore(config, (store) =>
        store.getEventsByFilter({ filter, continuationToken: null, maxItems: limit }),
      );
      if (found.events.length === 0 && options.endpoint) await requireKnownEndpoint(config, options.endpoint);
      if (options.json)
        print(JSON.stringify(found.events.map((row) => withState(row, row.resolutionStatus))));
      else if (found.events.length === 0) print('No events match.');
      else for (const row of found.events) print(summaryLine(row));
    },
  );

  const show = events
    .command('show')
    .description('Show one event: its status, payload, message history and audit trail.')
    .argument('<endpoint>', 'endpoint id')
    .argument('<eventId>', 'event id')
    .option('--json', 'JSON for scripts');
  withBackendOptions(show).action(async (endpointId: string, eventId: string, options: Backends) => {
    const remote = remoteEvents();
    if (remote) {
      const shown = await remote.show(endpointId, eventId);
      print(
        options.json
          ? JSON.stringify({ ...shown, event: withState(shown.event, shown.event.status) })
          : `Event ${shown.event.eventId} on ${shown.event.endpointId}: ${eventStateText(shown.event.status, shown.event.retry)}\n  payload: ${shown.payload ?? '(none stored)'}\n  ${shown.history.length} messages, ${shown.audits.length} audit rows (use --json for all)`,
      );
      return;
    }
    const config = configFrom(options);
    requireSharedBackends(config, 'events show');
    await withStore(config, async (store) => {
      const row = await loadEvent(store, endpointId, eventId);
      const payload = await storedPayload(store, row);
      const history = await store.getEventHistory(eventId);
      const audits = await store.getMessageAudits(eventId);
      if (options.json) {
        print(JSON.stringify({ event: withState(row, row.resolutionStatus), payload, history, audits }));
        return;
      }
      print(`Event ${row.eventId} on ${row.endpointId}: ${eventStateText(row.resolutionStatus, row.retry)}`);
      print(
        `  type ${row.eventTypeId ?? '-'}, session ${row.sessionId || '-'}, correlation ${row.correlationId ?? '-'}`,
      );
      const error = row.messageContent.errorContent;
      if (error) print(`  error: ${error.errorText}`);
      if (row.deadLetterReason) print(`  dead-letter reason: ${row.deadLetterReason}`);
      print(`  payload: ${payload ?? '(none stored)'}`);
      print('  history:');
      for (const m of history)
        print(
          `    ${m.enqueuedTimeUtc.toISOString()}  ${m.messageType}  ${m.from ?? '-'} -> ${m.to ?? '-'}  ${m.messageId}`,
        );
      print('  audits:');
      if (audits.length === 0) print('    (none)');
      for (const a of audits)
        print(
          `    ${a.auditTimestamp.toISOString()}  ${a.auditType}  by ${a.auditorName}${a.comment ? ` — ${a.comment}` : ''}`,
        );
    });
  });

  const resubmit = events
    .command('resubmit')
    .description(
      'Run a failed event again, optionally with an edited payload; its parked successors then replay in order.',
    )
    .argument('<endpoint>', 'endpoint id')
    .argument('<eventId>', 'event id')
    .option('--payload <json>', 'replace the payload with this JSON')
    .option('--payload-file <path>', "replace the payload with JSON from a file ('-' for stdin)")
    .option(
      '--set <field=value...>',
      'edit top-level fields of the stored payload, e.g. --set vatNumber=DK12345678',
    )
    .option('--comment <text>', 'note stored on the audit row')
    .option(
      '--platform <module>',
      `check an edited payload against this platform's schemas (default: the one \`nimbus dev\` recorded in the data dir); ${PLATFORM_OPTION_HELP}`,
    )
    .option(
      '--out-of-order',
      'confirm resubmitting a DeadLettered or Unsupported event: it runs after later events of its session',
    )
    .option('--json', 'print the outcome as JSON');
  withBackendOptions(resubmit).action(
    async (
      endpointId: string,
      eventId: string,
      options: Backends & {
        payload?: string;
        payloadFile?: string;
        set?: string[];
        comment?: string;
        outOfOrder?: boolean;
        platform?: string;
      },
    ) => {
      const outOfOrder = options.outOfOrder === true;
      let edited = readPayload(options);
      const edits = options.set ?? [];
      const remote = remoteEvents();
      if (remote) {
        const done = await remote.resubmit(
          endpointId,
          eventId,
          edited,
          edits,
          options.comment ?? null,
          outOfOrder,
        );
        print(options.json ? JSON.stringify(done) : remoteActionLine(done));
        return;
      }
      const outcome = await act(options, async (actions) => {
        const row = await actions.load(endpointId, eventId);
        if (edits.length > 0) {
          const base = edited ?? (await actions.storedPayload(row));
          if (base === null)
            throw new CliError(`Event '${eventId}' has no stored payload to edit; use --payload.`);
          edited = applyEdits(base, edits);
        }
        if (edited !== null) {
          const platform =
            (await platformFrom(options.platform, false)) ??
            (await recordedPlatform(configFrom(options).dataDir));
          assertPayloadMatchesSchema(platform, row.eventTypeId, edited);
        }
        return actions.resubmit(row, edited, options.comment ?? null, outOfOrder);
      });
      print(options.json ? JSON.stringify(outcome) : actionLine(outcome));
    },
  );

  const skip = events
    .command('skip')
    .description('Give up on a failed event: it is recorded as Skipped and its session moves on.')
    .argument('<endpoint>', 'endpoint id')
    .argument('<eventId>', 'event id')
    .option('--comment <text>', 'note stored on the audit row')
    .option('--json', 'print the outcome as JSON');
  withBackendOptions(skip).action(
    async (endpointId: string, eventId: string, options: Backends & { comment?: string }) => {
      const remote = remoteEvents();
      if (remote) {
        const done = await remote.skip(endpointId, eventId, options.comment ?? null);
        print(options.json ? JSON.stringify(done) : remoteActionLine(done));
        return;
      }
      const outcome = await act(options, async (actions) =>
        actions.skip(await actions.load(endpointId, eventId), options.comment ?? null),
      );
      print(options.json ? JSON.stringify(outcome) : actionLine(outcome));
    },
  );
  return events;
}

async function act(options: Backends, work: (actions: CliOperatorActions) => Promise<ActionOutcome>) {
  const config = configFrom(options);
  requireSharedBackends(config, 'events actions');
  return withStore(config, async (store) => {
    const transport = await openTransport(config);
    try {
      return await work(new CliOperatorActions(store, transport, cliAuditorName()));
    } finally {
      await transport.close();
    }
  });
}
