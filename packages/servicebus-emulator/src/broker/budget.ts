import { BrokerError, Condition } from '../wire/errors.js';

/** The namespace's memory bound: messages held across all entities, by count and by bytes. */
export class MemoryBudget {
  #messages = 0;
  #bytes = 0;

  constructor(
    readonly maxMessages: number,
    readonly maxBytes: number,
  ) {}

  /** Throws QuotaExceeded, taking nothing, when `count` messages of `bytes` in total do not fit. */
  reserve(count: number, bytes: number): void {
    if (this.#messages + count > this.maxMessages || this.#bytes + bytes > this.maxBytes) {
      throw new BrokerError(
        Condition.quotaExceeded,
        `the emulator holds ${this.#messages} messages (${this.#bytes} bytes); ${count} more (${bytes} bytes) exceed its budget of ${this.maxMessages} messages / ${this.maxBytes} bytes`,
      );
    }
    this.#messages += count;
    this.#bytes += bytes;
  }

  release(count: number, bytes: number): void {
    this.#messages = Math.max(0, this.#messages - count);
    this.#bytes = Math.max(0, this.#bytes - bytes);
  }

  get usage(): { messages: number; bytes: number } {
    return { messages: this.#messages, bytes: this.#bytes };
  }
}
