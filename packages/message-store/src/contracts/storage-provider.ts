import { StorageProviderRegistrationError } from '../errors.js';
import type { OpenMessageStore } from './nimbus-message-store.js';

export interface StorageProviderCapabilities {
  /** Cross-account container copy (a Cosmos-only operator tool); false everywhere here. */
  readonly supportsCrossAccountCopy: boolean;
}

/** One registered storage provider. Exactly one may be registered per running application. */
export interface StorageProviderRegistration {
  readonly providerName: string;
  readonly capabilities: StorageProviderCapabilities;
  /** Opens the store (connects, applies or verifies migrations as configured). */
  open(): Promise<OpenMessageStore>;
}

/** Fails fast unless exactly one provider is registered; the error names what is registered. */
export function resolveSingleProvider(
  registrations: readonly StorageProviderRegistration[],
): StorageProviderRegistration {
  const names = registrations.map((r) => r.providerName);
  if (registrations.length === 0) {
    throw new StorageProviderRegistrationError(
      'No NimBus storage provider is registered. Register exactly one (for example the SQLite, PostgreSQL or in-memory provider).',
      names,
    );
  }
  if (registrations.length > 1) {
    throw new StorageProviderRegistrationError(
      `Exactly one NimBus storage provider may be registered, but ${registrations.length} are: ${names.join(', ')}.`,
      names,
    );
  }
  return registrations[0]!;
}
