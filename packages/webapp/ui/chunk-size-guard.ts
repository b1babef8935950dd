import type { Plugin } from 'vite';

/** Vite's warning threshold (`build.chunkSizeWarningLimit`); the guard counts bytes, at least what Vite counts. */
export const CHUNK_SIZE_LIMIT_KB = 500;

/**
 * Fails the build, instead of printing Vite's warning, when a chunk's minified code exceeds the limit: a new
 * dependency then needs a place in VENDOR_CHUNKS (or a lazy import) before it can land.
 */
export function chunkSizeGuard(limitKb = CHUNK_SIZE_LIMIT_KB): Plugin {
  return {
    name: 'nimbus-chunk-size-guard',
    apply: 'build',
    generateBundle(_options, bundle) {
      const large = Object.values(bundle).flatMap((output) => {
        if (output.type !== 'chunk') return [];
        const kb = Buffer.byteLength(output.code) / 1000;
        return kb > limitKb ? [`${output.fileName} (${kb.toFixed(1)} kB)`] : [];
      });
      if (large.length > 0)
        this.error(
          `UI chunks over ${limitKb} kB: ${large.join(', ')}; split them in ui/vite.config.ts (VENDOR_CHUNKS) or load them lazily`,
        );
    },
  };
}
