/** `npm run generate:api-types -w @nimbus/webapp` (run by `build:ui`): writes ui/src/generated/api-types.ts. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { API_TYPES_FILE, fullOpenApiDocument, generateApiTypes } from './api-types.js';

mkdirSync(path.dirname(API_TYPES_FILE), { recursive: true });
writeFileSync(API_TYPES_FILE, await generateApiTypes(await fullOpenApiDocument()));
console.log(`wrote ${path.relative(process.cwd(), API_TYPES_FILE)}`);
