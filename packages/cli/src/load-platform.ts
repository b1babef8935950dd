import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Platform } from '@nimbus/core';

export class PlatformModuleError extends Error {
  override readonly name = 'PlatformModuleError';
}

/** Loads a user's platform definition: a module exporting `platform` (or a default export) of type Platform. */
export async function loadPlatformModule(
  specifier: string,
): Promise<{ platform: Platform; module: Record<string, unknown> }> {
  const target =
    specifier.startsWith('.') || isAbsolute(specifier) ? pathToFileURL(resolve(specifier)).href : specifier;
  let module: Record<string, unknown>;
  try {
    module = (await import(target)) as Record<string, unknown>;
  } catch (error) {
    throw new PlatformModuleError(
      `Could not load platform module '${specifier}': ${(error as Error).message}`,
    );
  }
  const candidate = module.platform ?? module.default;
  if (!(candidate instanceof Platform)) {
    throw new PlatformModuleError(
      `Platform module '${specifier}' must export 'platform' (or a default export) created with definePlatform().`,
    );
  }
  return { platform: candidate, module };
}
