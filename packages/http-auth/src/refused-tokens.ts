import { createHash } from 'node:crypto';

const KEPT = 32;

/**
 * The tokens an API refused, remembered by their SHA-256 (never the token itself) so none is sent
 * again. Only the last few are kept: a refused token is one the credential could still hand back from
 * its cache, which holds one token per scope set.
 */
export class RefusedTokens {
  readonly #digests: string[] = [];

  static #digest(token: string): string {
    return createHash('sha256').update(token).digest('base64url');
  }

  has(token: string): boolean {
    return this.#digests.includes(RefusedTokens.#digest(token));
  }

  add(token: string): void {
    const digest = RefusedTokens.#digest(token);
    if (this.#digests.includes(digest)) return;
    this.#digests.push(digest);
    if (this.#digests.length > KEPT) this.#digests.shift();
  }
}
