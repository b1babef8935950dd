/** The operations of the WebApp's OpenAPI document, with a valid request for each (matrix and fuzz tests). */

type Schema = Record<string, unknown>;

export interface Operation {
  readonly method: string;
  /** OpenAPI path, `/api/endpoints/{endpointId}`. */
  readonly path: string;
  readonly key: string;
  readonly authenticated: boolean;
  readonly pathParams: readonly string[];
  readonly query: readonly { name: string; schema: Schema; required: boolean }[];
  readonly bodySchema: Schema | null;
  /** A stream (`text/event-stream`) that stays open: callers read its status, never its body. */
  readonly streaming: boolean;
}

interface OpenApiDocument {
  readonly paths: Record<
    string,
    Record<
      string,
      {
        security?: readonly unknown[];
        parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
        requestBody?: { content: { 'application/json': { schema: Schema } } };
        responses?: Record<string, { content?: Record<string, unknown> }>;
      }
    >
  >;
}

export function operationsOf(document: unknown): Operation[] {
  const doc = document as OpenApiDocument;
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      key: `${method.toUpperCase()} ${path}`,
      authenticated: (op.security ?? []).length > 0,
      pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      query: (op.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => ({ name: p.name, schema: p.schema, required: p.required ?? false })),
      bodySchema: op.requestBody?.content['application/json'].schema ?? null,
      streaming: Object.values(op.responses ?? {}).some((r) => 'text/event-stream' in (r.content ?? {})),
    })),
  );
}

/** A value the schema accepts: the first enum member, the minimum, a required-only object. */
export function sampleOf(schema: Schema, name = '', overrides: Record<string, unknown> = {}): unknown {
  if (name in overrides) return overrides[name];
  if (Array.isArray(schema.anyOf)) {
    const first = (schema.anyOf as Schema[]).find((s) => s.type !== 'null') ?? {};
    return sampleOf(first, name, overrides);
  }
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      return Object.fromEntries(
        Object.entries(properties)
          .filter(([key]) => required.has(key) || key in overrides)
          .map(([key, property]) => [key, sampleOf(property, key, overrides)]),
      );
    }
    case 'array': {
      const count = Math.max(1, Number(schema.minItems ?? 1));
      return Array.from({ length: count }, () => sampleOf((schema.items ?? {}) as Schema, name, overrides));
    }
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'string':
      if (schema.format === 'email') return 'someone@example.test';
      if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
      return 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
    default:
      return null;
  }
}

export function urlOf(operation: Operation, params: Record<string, string>, query = ''): string {
  let url = operation.path;
  for (const name of operation.pathParams) {
    const value = params[name];
    if (value === undefined) throw new Error(`${operation.key}: no sample value for path parameter ${name}`);
    url = url.replace(`{${name}}`, encodeURIComponent(value));
  }
  return query ? `${url}?${query}` : url;
}
