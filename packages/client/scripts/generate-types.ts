/**
 * `npm run generate -w @nimbus/client` (the root build runs it before `tsc -b`): writes src/generated/openapi.ts
 * from the WebApp's OpenAPI document, built in-process without a server. The file is not committed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { webAppOpenApiDocument } from '@nimbus/webapp';
import { GENERATED_TYPES_FILE, generateTypes } from './openapi-types.js';

mkdirSync(path.dirname(GENERATED_TYPES_FILE), { recursive: true });
writeFileSync(GENERATED_TYPES_FILE, await generateTypes(await webAppOpenApiDocument()));
console.log(`wrote ${path.relative(process.cwd(), GENERATED_TYPES_FILE)}`);
