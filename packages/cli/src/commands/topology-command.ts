import { writeFileSync } from 'node:fs';
import { type Platform, topologyFromPlatform } from '@nimbus/core';
import { Command } from 'commander';
import { openTransport } from '../backends/open-transport.js';
import { describeTopologyChanges } from '../services/topology-summary.js';
import { configFrom, withBackendOptions } from './backend-options.js';
import { PLATFORM_OPTION_HELP, platformFrom } from './platform-option.js';

/** The platform as JSON: endpoints with what they produce and consume, and the routes derived from them. */
export function platformDocument(platform: Platform) {
  const typeRef = (t: { id: string; kind?: string }) => ({ id: t.id, ...(t.kind ? { kind: t.kind } : {}) });
  return {
    endpoints: [...platform.endpoints]
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((e) => ({
        id: e.id,
        ...(e.description ? { description: e.description } : {}),
        ...(e.system ? { system: e.system } : {}),
        produces: e.produces.map(typeRef).sort((a, b) => a.id.localeCompare(b.id)),
        consumes: e.consumes.map(typeRef).sort((a, b) => a.id.localeCompare(b.id)),
      })),
    topology: topologyFromPlatform(platform),
  };
}

export function topologyCommand(print: (line: string) => void): Command {
  const topology = new Command('topology').description(
    'Provision or print the transport topology of a platform.',
  );

  topology
    .command('export')
    .description('Print the platform (endpoints, event types, routes) as JSON.')
    .requiredOption('--platform <module>', PLATFORM_OPTION_HELP)
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .action(async (options: { platform: string; output?: string }) => {
      const platform = (await platformFrom(options.platform, true)) as Platform;
      const json = JSON.stringify(platformDocument(platform), null, 2);
      if (options.output) {
        writeFileSync(options.output, `${json}\n`);
        print(`Wrote ${options.output}`);
      } else {
        print(json);
      }
    });

  const apply = topology
    .command('apply')
    .description(
      'Create the endpoint inputs and routes the platform needs (idempotent); prints what changed.',
    )
    .requiredOption('--platform <module>', PLATFORM_OPTION_HELP)
    .option('--json', 'print the changes as JSON');
  withBackendOptions(apply).action(
    async (options: {
      platform: string;
      json?: boolean;
      dataDir?: string;
      store?: string;
      transport?: string;
    }) => {
      const platform = (await platformFrom(options.platform, true)) as Platform;
      const config = configFrom(options);
      const transport = await openTransport(config);
      try {
        const changes = await transport.applyTopology(topologyFromPlatform(platform));
        if (options.json) print(JSON.stringify(changes));
        else for (const line of describeTopologyChanges(changes)) print(line);
      } finally {
        await transport.close();
      }
    },
  );
  return topology;
}
