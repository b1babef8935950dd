import type { Logger } from '@nimbus/core';

/** Things to shut down, closed in reverse order of opening; one failing close does not stop the others. */
export class Closers {
  readonly #items: { name: string; close: () => Promise<void> }[] = [];

  add(name: string, close: () => Promise<void>): void {
    this.#items.push({ name, close });
  }

  async closeAll(logger: Logger): Promise<boolean> {
    let clean = true;
    for (const item of this.#items.splice(0).reverse()) {
      try {
        await item.close();
      } catch (error) {
        clean = false;
        logger.error({ error }, `Could not close ${item.name}`);
      }
    }
    return clean;
  }
}
