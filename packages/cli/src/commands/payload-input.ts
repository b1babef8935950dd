import { readFileSync } from 'node:fs';
import { usageError } from '../exit-codes.js';

/** JSON from `--payload <json>` or `--payload-file <path>` (`-` reads stdin); null when neither is given. */
export function readPayload(options: { payload?: string; payloadFile?: string }): string | null {
  if (options.payload !== undefined && options.payloadFile !== undefined) {
    throw usageError('Give either --payload or --payload-file, not both.');
  }
  let text: string;
  let source: string;
  if (options.payload !== undefined) {
    text = options.payload;
    source = '--payload';
  } else if (options.payloadFile !== undefined) {
    source = options.payloadFile === '-' ? 'stdin' : options.payloadFile;
    try {
      text = readFileSync(options.payloadFile === '-' ? 0 : options.payloadFile, 'utf8');
    } catch (error) {
      throw usageError(`Could not read ${source}: ${(error as Error).message}`);
    }
  } else {
    return null;
  }
  try {
    JSON.parse(text);
  } catch (error) {
    throw usageError(`${source} is not valid JSON: ${(error as Error).message}`);
  }
  return text.trim();
}

/** Applies `--set field=value` edits (value parsed as JSON when it parses, else kept as a string). */
export function applyEdits(eventJson: string, edits: readonly string[]): string {
  if (edits.length === 0) return eventJson;
  const value = JSON.parse(eventJson) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usageError('--set needs a payload that is a JSON object.');
  }
  const target = value as Record<string, unknown>;
  for (const edit of edits) {
    const at = edit.indexOf('=');
    if (at <= 0) throw usageError(`--set expects field=value; got '${edit}'.`);
    const field = edit.slice(0, at);
    const raw = edit.slice(at + 1);
    let parsed: unknown = raw;
    try {
      parsed = JSON.parse(raw);
    } catch {
      // not JSON: the value is the plain string
    }
    target[field] = parsed;
  }
  return JSON.stringify(target);
}
