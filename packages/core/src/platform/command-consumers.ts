import { PlatformDefinitionError } from './errors.js';
import type { Platform } from './platform.js';

/** Every command must have exactly one consuming endpoint. Returns one readable error per violation. */
export function validateCommandConsumers(platform: Platform): string[] {
  const errors: string[] = [];
  for (const type of platform.eventTypes) {
    if (type.kind !== 'command') continue;
    const consumers = [...new Set(platform.getConsumers(type.id).map((e) => e.id))].sort();
    if (consumers.length === 0) {
      errors.push(`Command '${type.id}' has no consuming endpoint; a command needs exactly one.`);
    } else if (consumers.length > 1) {
      errors.push(
        `Command '${type.id}' has ${consumers.length} consuming endpoints (${consumers.join(', ')}); a command needs exactly one.`,
      );
    }
  }
  return errors;
}

/** Throws {@link PlatformDefinitionError} listing every command-consumer violation, one per line. */
export function ensureCommandConsumers(platform: Platform): void {
  const errors = validateCommandConsumers(platform);
  if (errors.length > 0) throw new PlatformDefinitionError(errors.join('\n'));
}
