/**
 * `npm run generate -w @nimbus/client` (the root build runs it before `tsc -b`): writes src/generated/openapi.ts
 * from the WebApp's OpenAPI document, built in-process without a server. The file is not committed; it is
 * rewritten only when the types changed, so that an unchanged API leaves `tsc -b` with nothing to rebuild.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { webAppOpenApiDocument } from '@nimbus/webapp';
import { GENERATED_TYPES_FILE, generateTypes } from './openapi-types.js';

const types = await generateTypes(await webAppOpenApiDocument());
const where = path.relative(process.cwd(), GENERATED_TYPES_FILE);
if (existsSync(GENERATED_TYPES_FILE) && readFileSync(GENERATED_TYPES_FILE, 'utf8') === types) {
  console.log(`${where} is up to date`);
} else {
  mkdirSync(path.dirname(GENERATED_TYPES_FILE), { recursive: true });
  writeFileSync(GENERATED_TYPES_FILE, types);
  console.log(`wrote ${where}`);
}
