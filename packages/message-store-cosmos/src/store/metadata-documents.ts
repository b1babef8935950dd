import type { Container } from '@azure/cosmos';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import { type CosmosStoreContext, queryAll } from './cosmos-context.js';
import { isCosmosStatus } from './cosmos-errors.js';
import { encodeId, type MetadataKind } from './layout.js';

/** JSON-safe copy: every Date becomes its ISO string. */
export function toStored<T>(value: T): unknown {
  return JSON.parse(JSON.stringify(value));
}

/** Turns the named ISO-string fields of `value` (one level deep) back into Dates; null stays null. */
export function reviveDates<T>(value: Record<string, unknown>, fields: readonly string[]): T {
  const copy: Record<string, unknown> = { ...value };
  for (const field of fields) {
    const raw = copy[field];
    if (typeof raw === 'string') copy[field] = new Date(raw);
  }
  for (const key of Object.keys(copy)) if (key.startsWith('_')) delete copy[key];
  return copy as T;
}

export interface StoredDocument<T> {
  readonly body: T;
  readonly etag: string;
}

type Body = Record<string, unknown>;

/**
 * Documents of one kind in the `Metadata` container (partition `/kind`, id = the encoded key), with the
 * etag-conditioned writes the claims and read-modify-write updates need.
 */
export class MetadataDocuments {
  constructor(
    private readonly context: CosmosStoreContext,
    readonly kind: MetadataKind,
  ) {}

  get #container(): Container {
    return this.context.container('metadata');
  }

  async read(key: string): Promise<StoredDocument<Body> | null> {
    const { resource } = await this.#container
      .item(encodeId(key), this.kind)
      .read<Body & { _etag: string }>();
    return resource === undefined ? null : { body: resource, etag: resource._etag };
  }

  async list(
    where = '',
    parameters: { name: string; value: string | number | boolean }[] = [],
  ): Promise<Body[]> {
    return queryAll<Body>(
      this.#container,
      `SELECT * FROM c WHERE c.kind = @kind${where ? ` AND ${where}` : ''}`,
      [{ name: '@kind', value: this.kind }, ...parameters],
    );
  }

  async upsert(key: string, body: Body): Promise<void> {
    await this.#container.items.upsert({ ...body, id: encodeId(key), kind: this.kind });
  }

  /**
   * Writes `body` only if the document is still as read (`etag`), or still absent (`etag` null).
   * False when another writer got there first.
   */
  async writeIfUnchanged(key: string, etag: string | null, body: Body): Promise<boolean> {
    const doc = { ...body, id: encodeId(key), kind: this.kind };
    try {
      if (etag === null) await this.#container.items.create(doc);
      else
        await this.#container
          .item(doc.id, this.kind)
          .replace(doc, { accessCondition: { type: 'IfMatch', condition: etag } });
      return true;
    } catch (error) {
      if (isCosmosStatus(error, 412) || isCosmosStatus(error, 409)) return false;
      throw error;
    }
  }

  /** Read-modify-write retried on a lost race (up to `attempts`); `change` returns null to write nothing. */
  async update(
    key: string,
    change: (current: Body | null) => Body | null,
    attempts = 10,
  ): Promise<Body | null> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.read(key);
      const next = change(current?.body ?? null);
      if (next === null) return null;
      if (await this.writeIfUnchanged(key, current?.etag ?? null, next)) return next;
      if (attempt >= attempts) {
        throw new NimBusError(
          NimBusErrorCode.Transient,
          `The ${this.kind} document '${key}' kept changing under concurrent writers (${attempt} attempts).`,
        );
      }
    }
  }

  async delete(key: string): Promise<boolean> {
    try {
      await this.#container.item(encodeId(key), this.kind).delete();
      return true;
    } catch (error) {
      if (isCosmosStatus(error, 404)) return false;
      throw error;
    }
  }
}
