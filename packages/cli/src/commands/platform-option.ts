import type { Platform } from '@nimbus/core';
import { usageError } from '../exit-codes.js';
import { loadPlatformModule, PlatformModuleError } from '../load-platform.js';

export const PLATFORM_OPTION_HELP =
  'module exporting `platform` (definePlatform); a path (./dist/platform.js) or a package name';

/** Loads `--platform`; a module that cannot be loaded or exports no platform is a usage error (exit 2). */
export async function platformFrom(
  specifier: string | undefined,
  required: boolean,
): Promise<Platform | null> {
  if (!specifier) {
    if (required) {
      throw usageError(
        '--platform <module> is required (for the sample platform: --platform @nimbus/example-crm-erp).',
      );
    }
    return null;
  }
  try {
    return (await loadPlatformModule(specifier)).platform;
  } catch (error) {
    if (error instanceof PlatformModuleError) throw usageError(error.message);
    throw error;
  }
}
