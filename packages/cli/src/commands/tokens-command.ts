import type { RequestBody } from '@nimbus/client';
import { Command, Option } from 'commander';
import { usageError } from '../exit-codes.js';
import { WEBAPP_URL_ENV, WebAppClient } from '../remote/webapp-client.js';

/** Signs in with NIMBUS_WEBAPP_EMAIL / NIMBUS_WEBAPP_PASSWORD: tokens are managed from a session only. */
async function signedIn(): Promise<WebAppClient> {
  const client = WebAppClient.fromEnv(process.env, { needsToken: false });
  if (!client) throw usageError(`Set ${WEBAPP_URL_ENV} to the WebApp's URL.`);
  const session = new WebAppClient(client.baseUrl, null);
  await session.signIn();
  return session;
}

/** `nimbus tokens create|list|revoke`: personal API tokens of the signed-in WebApp user. */
export function tokensCommand(print: (line: string) => void): Command {
  const tokens = new Command('tokens').description(
    `Create, list and revoke your WebApp API tokens (${WEBAPP_URL_ENV}, NIMBUS_WEBAPP_EMAIL and NIMBUS_WEBAPP_PASSWORD from the environment).`,
  );
  tokens
    .command('create')
    .description('Create an API token; it is printed once, keep it in a secret store (NIMBUS_API_TOKEN).')
    .argument('<name>', 'what the token is for, e.g. ci-nightly')
    .addOption(
      new Option('--max-role <role>', 'act with at most this role').choices([
        'Reader',
        'Contributor',
        'Owner',
      ]),
    )
    .option('--days <n>', 'days until it expires (1-365)', '30')
    .option('--json', 'print the token record as JSON')
    .action(async (name: string, options: { maxRole?: string; days: string; json?: boolean }) => {
      const days = Number(options.days);
      if (!Number.isInteger(days) || days < 1 || days > 365)
        throw usageError(`--days must be a whole number 1..365; got '${options.days}'.`);
      const session = await signedIn();
      const maxRole = (options.maxRole ?? null) as RequestBody<'/api/account/tokens'>['maxRole'];
      const created = await session.call(
        session.api.POST('/api/account/tokens', { body: { name, maxRole, expiresInDays: days } }),
      );
      if (options.json) print(JSON.stringify(created));
      else {
        print(`Token '${created.name}' (${created.id}) expires ${created.expiresAt}; it is not shown again:`);
        print(created.token ?? '');
      }
    });
  tokens
    .command('list')
    .description('List your API tokens (never their secrets).')
    .option('--json', 'one JSON array')
    .action(async (options: { json?: boolean }) => {
      const session = await signedIn();
      const list = await session.call(session.api.GET('/api/account/tokens'));
      if (options.json) print(JSON.stringify(list));
      else if (list.length === 0) print('No API tokens.');
      else
        for (const t of list)
          print(
            `${t.id}  ${t.name.padEnd(20)}  ${(t.maxRole ?? 'my roles').padEnd(11)}  ${t.active ? `expires ${t.expiresAt}` : 'inactive'}`,
          );
    });
  tokens
    .command('revoke')
    .description('Revoke one of your API tokens at once.')
    .argument('<id>', 'the token id (from tokens list)')
    .action(async (id: string) => {
      const session = await signedIn();
      await session.call(
        session.api.DELETE('/api/account/tokens/{tokenId}', { params: { path: { tokenId: id } } }),
      );
      print(`Token ${id} revoked.`);
    });
  return tokens;
}
