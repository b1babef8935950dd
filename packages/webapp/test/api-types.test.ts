import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, fullOpenApiDocument, generateApiTypes } from './support/api-types.js';

describe('the UI API types', () => {
  it('are what openapi-typescript generates from the current OpenAPI document', async () => {
    const expected = await generateApiTypes(await fullOpenApiDocument());
    const committed = readFileSync(API_TYPES_FILE, 'utf8');
    // On a mismatch: npm run generate:api-types -w @nimbus/webapp, then fix what the UI typecheck reports.
    expect(committed === expected, `${API_TYPES_FILE} is out of date`).toBe(true);
  }, 60_000);
});
