import type { FastifyInstance } from 'fastify';
import { HttpError, type ValidationIssue } from './http-error.js';

/** Deeper JSON than any route takes is refused before a schema (or a recursive walk) sees it. */
export const MAX_JSON_DEPTH = 32;

// NUL cannot be stored in PostgreSQL text; a lone surrogate is not valid UTF-8 in any store.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function problemIn(value: unknown, root: string): ValidationIssue | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop()!;
    if (typeof current === 'string') {
      if (UNSTORABLE.test(current))
        return { path, message: 'contains a NUL byte or an unpaired surrogate, which cannot be stored' };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return { path, message: `is nested deeper than ${MAX_JSON_DEPTH} levels` };
    for (const [key, child] of Object.entries(current)) {
      if (UNSTORABLE.test(key))
        return {
          path,
          message: 'has a key with a NUL byte or an unpaired surrogate, which cannot be stored',
        };
      stack.push({ value: child, path: `${path}.${key}`, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * One check for every route: path parameters, query and JSON body must be storable text. Refused with a
 * 400 naming the field, instead of a database error (500) deep inside an action.
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const issue = problemIn(value, part);
      if (issue) {
        throw new HttpError(400, 'ValidationError', `Invalid request: ${issue.path}: ${issue.message}`, [
          issue,
        ]);
      }
    }
  });
}
