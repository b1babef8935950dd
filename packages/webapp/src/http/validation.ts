import type { z } from 'zod';
import { HttpError, type ValidationIssue } from './http-error.js';

/** Parses one part of a request; a failure becomes a 400 whose message names every bad field. */
export function parsePart<S extends z.ZodType>(
  part: 'body' | 'query' | 'params',
  schema: S,
  value: unknown,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues: ValidationIssue[] = result.error.issues.map((issue) => ({
    path: [part, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return failValidation(`Invalid request: ${summary}`, issues);
}

function failValidation(message: string, issues: ValidationIssue[]): never {
  throw new HttpError(400, 'ValidationError', message, issues);
}
