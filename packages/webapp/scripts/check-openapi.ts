/**
 * `npm run check:openapi` (CI): builds the WebApp's OpenAPI document (every optional route on, no server)
 * and lints it with Redocly's recommended-strict rules (redocly.yaml at the root): warnings fail too.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { webAppOpenApiDocument } from '../src/index.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const require = createRequire(import.meta.url);
const redoclyManifest = require.resolve('@redocly/cli/package.json');
const { bin } = require(redoclyManifest) as { bin: Record<string, string> };
const redocly = path.join(path.dirname(redoclyManifest), bin.redocly ?? Object.values(bin)[0] ?? '');

// A fixed path, so that .redocly.lint-ignore.yaml can name the few deliberate exceptions by JSON pointer.
const file = path.join(root, 'packages/webapp/dist/openapi.json');
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(await webAppOpenApiDocument(), null, 2)}\n`);
const result = spawnSync(
  process.execPath,
  [redocly, 'lint', '--config', path.join(root, 'redocly.yaml'), '--format', 'stylish', file],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  },
);
if (result.error) throw result.error;
process.exitCode = result.status ?? 1;
