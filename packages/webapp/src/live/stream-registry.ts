import type { Principal } from '../auth/principal.js';

interface OpenStream {
  readonly principal: Principal;
  end(): void;
}

export const apiTokenKey = (tokenId: string) => `token:${tokenId}`;

/** A stable key of the credential a stream was opened with (session or API token). */
export function credentialKey(principal: Principal): string {
  const credential = principal.credential;
  if (credential.kind === 'bulkJob') return `bulk-job:${credential.jobId}`;
  return credential.kind === 'session'
    ? `session:${credential.session.tokenHash}`
    : apiTokenKey(credential.token.id);
}

/**
 * The open live-update streams, so signing out, a password change, a role change or a revoked token ends
 * the streams that were opened with the old rights (the browser reconnects and is authorised afresh).
 */
export class StreamRegistry {
  readonly #streams = new Set<OpenStream>();

  add(stream: OpenStream): () => void {
    this.#streams.add(stream);
    return () => this.#streams.delete(stream);
  }

  get size(): number {
    return this.#streams.size;
  }

  closeUser(userId: string): void {
    this.#close((s) => s.principal.user.id === userId);
  }

  closeCredential(key: string): void {
    this.#close((s) => credentialKey(s.principal) === key);
  }

  closeAll(): void {
    this.#close(() => true);
  }

  #close(match: (stream: OpenStream) => boolean): void {
    for (const stream of [...this.#streams]) {
      if (match(stream)) {
        this.#streams.delete(stream);
        stream.end();
      }
    }
  }
}
