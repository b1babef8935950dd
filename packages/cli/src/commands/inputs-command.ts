import { RESOLVER_INPUT, type Transport } from '@nimbus/core';
import { MessageAuditType } from '@nimbus/message-store';
import { Command } from 'commander';
import { usageError } from '../exit-codes.js';
import { cliAuditorName } from '../operator-name.js';
import { configFrom, withBackendOptions } from './backend-options.js';
import { audit, withTransport } from './dead-letters-command.js';

interface Options {
  dataDir?: string;
  store?: string;
  transport?: string;
  json?: boolean;
  comment?: string;
}

function controlOf(transport: Transport) {
  if (!transport.control)
    throw usageError(`The ${transport.name} transport keeps no control state: inputs cannot be paused.`);
  return transport.control;
}

/**
 * `nimbus inputs status|pause|resume`: the console's monitoring controls from a script (the WebApp's
 * Monitoring page does the same): backlog and pause state per input, and pausing an input's consumers, audited.
 */
export function inputsCommand(print: (line: string) => void): Command {
  const group = new Command('inputs').description(
    "Backlog and pause state of the endpoints' inputs; pause or resume an input's consumers.",
  );
  const status = group
    .command('status')
    .description('Every input with its backlog, dead letters and whether its consumers are paused.')
    .option('--json', 'one JSON array for scripts');
  withBackendOptions(status).action(async (options: Options) => {
    const rows = await withTransport(options, 'inputs status', RESOLVER_INPUT, async (t) => {
      const paused = new Set([...((await t.control?.pausedInputs()) ?? [])].map((i) => i.toLowerCase()));
      const out = [];
      for (const input of (await t.getTopology()).endpoints) {
        const counts = await t.counts(input);
        out.push({
          input,
          backlog: counts.active,
          deadLettered: counts.deadLettered,
          paused: paused.has(input.toLowerCase()),
        });
      }
      return out;
    });
    if (options.json) print(JSON.stringify(rows));
    else
      for (const r of rows)
        print(
          `${r.input.padEnd(24)} backlog ${String(r.backlog).padStart(6)}  dead letters ${String(r.deadLettered).padStart(5)}  ${r.paused ? 'PAUSED' : 'receiving'}`,
        );
  });
  for (const paused of [true, false]) {
    const name = paused ? 'pause' : 'resume';
    const command = group
      .command(name)
      .description(
        paused
          ? "Pauses an input's consumers: every host of the endpoint stops taking messages within its poll"
          : "Resumes an input's consumers",
      )
      .argument('<input>', 'endpoint id')
      .option('--comment <text>', 'why (kept in the audit row)');
    withBackendOptions(command).action(async (input: string, options: Options) => {
      const config = configFrom(options);
      await withTransport(options, `inputs ${name}`, input, async (t) => {
        const control = controlOf(t);
        // The audit row comes first: if it cannot be written, nothing changes.
        await audit(
          config,
          paused ? MessageAuditType.PauseInput : MessageAuditType.ResumeInput,
          input,
          { action: paused ? 'pauseInput' : 'resumeInput', comment: options.comment },
          `monitoring/${input}`,
        );
        await control.setPaused(input, { paused, by: cliAuditorName() });
      });
      print(`${input}: ${paused ? 'paused' : 'resumed'}`);
    });
  }
  return group;
}
