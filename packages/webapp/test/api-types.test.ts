import { describe, expect, it } from 'vitest';
import { fullOpenApiDocument, generateApiTypes } from '../scripts/api-types.js';

interface OpenApiDocument {
  readonly paths: Record<string, Record<string, { operationId?: string }>>;
}

describe('the UI API types', () => {
  it('are generated from the current OpenAPI document and name every path and operation in it', async () => {
    const document = (await fullOpenApiDocument()) as OpenApiDocument;
    const types = await generateApiTypes(document);
    const paths = Object.keys(document.paths);
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths) expect(types, path).toContain(`"${path}": {`);
    const operationIds = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
    );
    for (const id of operationIds) expect(types, id).toContain(`${id}: {`);
    expect(await generateApiTypes(document)).toBe(types);
  }, 60_000);
});
