import type { Platform } from '@nimbus/core';
import { createPublisher } from '@nimbus/sdk';
import { Command } from 'commander';
import { openNotifier } from '../backends/open-notifier.js';
import { openTransport } from '../backends/open-transport.js';
import { createCliLogger } from '../cli-logger.js';
import { notFound, usageError } from '../exit-codes.js';
import { configFrom, requireSharedBackends, withBackendOptions } from './backend-options.js';
import { readPayload } from './payload-input.js';
import { PLATFORM_OPTION_HELP, platformFrom } from './platform-option.js';

interface PublishOptions {
  platform: string;
  endpoint: string;
  payload?: string;
  payloadFile?: string;
  session?: string;
  correlationId?: string;
  json?: boolean;
  dataDir?: string;
  store?: string;
  transport?: string;
}

export function publishCommand(print: (line: string) => void): Command {
  const command = new Command('publish')
    .description('Publish one event as an endpoint of the platform (validated against the event schema).')
    .argument('<eventType>', 'event type id, e.g. CustomerUpserted')
    .requiredOption('--platform <module>', PLATFORM_OPTION_HELP)
    .requiredOption('--endpoint <id>', 'the publishing endpoint (must declare that it produces the type)')
    .option('--payload <json>', 'the event as JSON')
    .option('--payload-file <path>', "read the event JSON from a file ('-' for stdin)")
    .option('--session <id>', "session id (default: from the event type's session key)")
    .option('--correlation-id <id>', 'correlation id (default: new)')
    .option('--json', 'print the receipt as JSON');
  withBackendOptions(command);
  return command.action(async (eventTypeId: string, options: PublishOptions) => {
    const platform = (await platformFrom(options.platform, true)) as Platform;
    const endpoint = platform.getEndpoint(options.endpoint);
    if (!endpoint) throw notFound(`Endpoint '${options.endpoint}' is not part of the platform.`);
    const type = platform.getEventType(eventTypeId);
    if (!type) throw notFound(`Event type '${eventTypeId}' is not part of the platform.`);
    const payload = readPayload(options);
    if (payload === null) throw usageError('publish needs --payload <json> or --payload-file <path>.');
    const config = configFrom(options);
    requireSharedBackends(config, 'publish');
    // Co-located, the publish writes the subscribers' Pending rows: a WebApp elsewhere hears of them.
    const { notifier, close } = await openNotifier(config, createCliLogger());
    const transport = await openTransport(config, { notifier }).catch(async (error: unknown) => {
      await close();
      throw error;
    });
    try {
      const publisher = createPublisher({ transport, endpoint });
      const receipt = await publisher.publish(type, JSON.parse(payload), {
        ...(options.session ? { sessionId: options.session } : {}),
        ...(options.correlationId ? { correlationId: options.correlationId } : {}),
      });
      if (options.json) print(JSON.stringify(receipt));
      else
        print(
          `Published ${receipt.eventTypeId} from ${endpoint.id}: message ${receipt.messageId}, session ${receipt.sessionId}`,
        );
    } finally {
      await transport.close();
      await close();
    }
  });
}
