import type { Platform } from '@nimbus/core';
import type { EndpointMetadataStore } from '@nimbus/message-store';
import { notFound } from '../http/http-error.js';

/**
 * The endpoints operators see: the platform's endpoints, plus any endpoint the store knows metadata for
 * (so a WebApp started without a platform definition still lists what the Resolver has recorded).
 */
export class EndpointCatalog {
  constructor(
    private readonly platform: Platform | null,
    private readonly metadata: EndpointMetadataStore,
    private readonly extra: readonly string[] = [],
  ) {}

  async list(): Promise<string[]> {
    const ids = new Map<string, string>();
    const add = (id: string) => {
      if (!ids.has(id.toLowerCase())) ids.set(id.toLowerCase(), id);
    };
    for (const endpoint of this.platform?.endpoints ?? []) add(endpoint.id);
    for (const id of this.extra) add(id);
    for (const metadata of await this.metadata.getMetadatas()) add(metadata.endpointId);
    return [...ids.values()];
  }

  /** The catalog's spelling of an endpoint id (ids compare case-insensitively); 404 when unknown. */
  async canonical(endpointId: string): Promise<string> {
    const wanted = endpointId.toLowerCase();
    const match = (await this.list()).find((id) => id.toLowerCase() === wanted);
    if (!match) throw notFound(`Endpoint '${endpointId}' not found.`);
    return match;
  }
}
