/** The client's types, generated from the WebApp's own OpenAPI document with openapi-typescript. */
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

export const GENERATED_TYPES_FILE = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));

const HEADER = `// Generated from the WebApp's OpenAPI document by \`npm run generate -w @nimbus/client\`
// (the root build runs it; the file is not committed). Do not edit.
`;

export async function generateTypes(document: unknown): Promise<string> {
  const ast = await openapiTS(document as OpenAPI3, { silent: true });
  return HEADER + astToString(ast);
}
