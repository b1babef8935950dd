import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { type Platform, tryValidate } from '@nimbus/core';
import { usageError } from '../exit-codes.js';
import { loadPlatformModule } from '../load-platform.js';

const FILE = 'platform.json';

/**
 * `nimbus dev` records which platform module it runs in its data dir, so the commands run beside it on the same
 * files (`events resubmit --set …`) check an edited payload against the event type's schema as the WebApp does,
 * without `--platform` on every command. A path is recorded absolute.
 */
export function recordPlatformModule(dataDir: string, specifier: string): void {
  const module = specifier.startsWith('.') || isAbsolute(specifier) ? resolve(specifier) : specifier;
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, FILE), `${JSON.stringify({ module }, null, 2)}\n`, { mode: 0o600 });
}

/** The platform `nimbus dev` recorded in the data dir; null when none was recorded or it no longer loads. */
export async function recordedPlatform(dataDir: string): Promise<Platform | null> {
  const path = join(dataDir, FILE);
  if (!existsSync(path)) return null;
  let module: unknown;
  try {
    module = (JSON.parse(readFileSync(path, 'utf8')) as { module?: unknown }).module;
  } catch {
    return null;
  }
  if (typeof module !== 'string') return null;
  try {
    return (await loadPlatformModule(module)).platform;
  } catch {
    return null;
  }
}

/**
 * An edited payload must match its event type's schema (as the WebApp checks it): otherwise a usage error
 * (exit 2) naming the fields, and nothing is sent. Without a platform nothing can be checked.
 */
export function assertPayloadMatchesSchema(
  platform: Platform | null,
  eventTypeId: string | null,
  eventJson: string,
): void {
  if (!platform || !eventTypeId) return;
  const eventType = platform.getEventType(eventTypeId);
  if (!eventType) throw usageError(`Event type '${eventTypeId}' is not part of the platform.`);
  let payload: unknown;
  try {
    payload = JSON.parse(eventJson);
  } catch (error) {
    throw usageError(`The edited payload is not valid JSON: ${(error as Error).message}. Nothing was sent.`);
  }
  const result = tryValidate(eventType, payload);
  if (result.valid) return;
  const problems = result.errors.map((e) => `${e.path || '(payload)'}: ${e.message}`).join('; ');
  throw usageError(
    `The edited payload does not match event type '${eventTypeId}': ${problems}. Nothing was sent.`,
  );
}
