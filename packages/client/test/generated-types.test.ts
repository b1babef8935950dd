import { webAppOpenApiDocument } from '@nimbus/webapp';
import { describe, expect, it } from 'vitest';
import { generateTypes } from '../scripts/openapi-types.js';
import { CSRF_HEADER, SESSION_COOKIE } from '../src/index.js';

interface OpenApiDocument {
  readonly paths: Record<string, Record<string, { operationId?: string }>>;
  readonly components: { readonly securitySchemes: Record<string, { name?: string }> };
}

describe('the client types', () => {
  it('are generated from the current OpenAPI document and name every path and operation in it', async () => {
    const document = (await webAppOpenApiDocument()) as OpenApiDocument;
    const types = await generateTypes(document);
    const paths = Object.keys(document.paths);
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths) expect(types, path).toContain(`"${path}": {`);
    const operationIds = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
    );
    for (const id of operationIds) expect(types, id).toContain(`${id}: {`);
    expect(await generateTypes(document)).toBe(types);
  }, 60_000);

  it("send the session cookie and CSRF header the document's security schemes name", async () => {
    const { securitySchemes } = ((await webAppOpenApiDocument()) as OpenApiDocument).components;
    expect(securitySchemes.sessionCookie?.name).toBe(SESSION_COOKIE);
    expect(securitySchemes.csrfHeader?.name).toBe(CSRF_HEADER);
  }, 60_000);
});
