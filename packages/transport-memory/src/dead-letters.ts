import { type DeadLetteredMessage, type TransportMessage, uuidv7 } from '@nimbus/core';

/** The dead-letter list of every input, oldest first. */
export class MemoryDeadLetters {
  readonly #lists = new Map<string, DeadLetteredMessage[]>();

  add(
    item: { readonly message: TransportMessage; readonly input: string; readonly deliveryCount: number },
    reason: string,
    description: string | null,
    now: number,
  ): void {
    const list = this.#lists.get(item.input) ?? [];
    this.#lists.set(item.input, list);
    list.push({
      ...item.message,
      id: uuidv7(now),
      input: item.input,
      reason,
      description,
      deliveryCount: item.deliveryCount,
      deadLetteredAt: new Date(now),
    });
  }

  list(input: string, max: number): DeadLetteredMessage[] {
    return (this.#lists.get(input) ?? []).slice(0, max);
  }

  count(input: string): number {
    return this.#lists.get(input)?.length ?? 0;
  }

  /** Removes the given dead letters (all when `ids` is absent) and returns them as messages to requeue. */
  take(input: string, ids?: readonly string[]): TransportMessage[] {
    const list = this.#lists.get(input) ?? [];
    const wanted = ids ? new Set(ids) : null;
    const moving = list.filter((d) => wanted === null || wanted.has(d.id));
    this.#lists.set(
      input,
      list.filter((d) => !moving.includes(d)),
    );
    return moving.map((d) => ({
      messageId: d.messageId,
      sessionId: d.sessionId,
      correlationId: d.correlationId,
      headers: d.headers,
      body: d.body,
    }));
  }

  clear(input: string): number {
    const removed = this.count(input);
    this.#lists.delete(input);
    return removed;
  }
}
