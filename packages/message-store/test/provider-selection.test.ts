import { describe, expect, it } from 'vitest';
import {
  memoryStorageProvider,
  resolveSingleProvider,
  type StorageProviderRegistration,
} from '../src/index.js';
import { assertValidStoreEndpointId, PaginationLimits } from '../src/provider.js';

const named = (providerName: string): StorageProviderRegistration => ({
  ...memoryStorageProvider({ env: {} }),
  providerName,
});

describe('resolveSingleProvider', () => {
  it('returns the only registration', () => {
    const only = named('sqlite');
    expect(resolveSingleProvider([only])).toBe(only);
  });

  it('fails fast when none is registered', () => {
    expect(() => resolveSingleProvider([])).toThrow(/No NimBus storage provider is registered/);
  });

  it('fails fast naming every provider when more than one is registered', () => {
    expect(() => resolveSingleProvider([named('sqlite'), named('postgres')])).toThrow(
      expect.objectContaining({
        code: 'ProviderRegistration',
        registeredProviders: ['sqlite', 'postgres'],
        message: expect.stringContaining('sqlite, postgres'),
      }),
    );
  });

  it('the memory registration opens a working store', async () => {
    const store = await memoryStorageProvider({ env: {} }).open();
    expect(store.providerName).toBe('memory');
    expect(await store.getEvent({ endpointId: 'ep', eventId: 'missing' })).toBeNull();
    await store.close();
  });
});

describe('reserved endpoint ids and page sizes', () => {
  it('rejects the store collection names case-sensitively', () => {
    expect(() => assertValidStoreEndpointId('inbox')).toThrow(/reserved/);
    expect(() => assertValidStoreEndpointId('Inbox')).not.toThrow();
  });

  it.each([
    [0, 100],
    [-1, 100],
    [-1000, 100],
    [1, 1],
    [50, 50],
    [1000, 1000],
    [1001, 1000],
    [Number.MAX_SAFE_INTEGER, 1000],
  ])('PaginationLimits.resolve(%s) is %s', (requested, expected) => {
    expect(PaginationLimits.resolve(requested)).toBe(expected);
  });
});
