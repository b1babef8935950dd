import type { Entry } from './message.js';

/** Who holds a session or a message lock: a receiver link, told when its session lock lapses. */
export interface LockHolder {
  readonly name: string;
  onSessionLockLost?(sessionId: string): void;
}

/** One session of a session-enabled queue (the non-session queue keeps its messages in one record too). */
export class SessionRecord {
  readonly entries: Entry[] = [];
  state: Buffer | null = null;
  holder: LockHolder | null = null;
  lockedUntil = 0;
  timer: NodeJS.Timeout | null = null;
  updatedAt = Date.now();
  /** When the session last became available to `lockNextSession` (got work while free, or was freed with work). */
  availableSince = 0;

  constructor(readonly id: string) {}

  /** Marks the moment the session became available, if it just did (`tick` orders events within a millisecond). */
  markAvailable(tick: number): void {
    if (this.holder === null && this.availableSince === 0 && this.hasAvailable()) {
      this.availableSince = tick;
    }
  }

  insert(entry: Entry): void {
    const entries = this.entries;
    let index = entries.length;
    while (index > 0 && entries[index - 1]!.sequence > entry.sequence) index--;
    entries.splice(index, 0, entry);
  }

  remove(entry: Entry): void {
    const index = this.entries.indexOf(entry);
    if (index >= 0) this.entries.splice(index, 1);
  }

  /** The first message that can be delivered now: active and not locked. */
  firstAvailable(): Entry | undefined {
    return this.entries.find((entry) => entry.state === 'active' && entry.lock === null);
  }

  hasAvailable(): boolean {
    return this.firstAvailable() !== undefined;
  }

  get isEmpty(): boolean {
    return this.entries.length === 0 && this.state === null && this.holder === null;
  }
}
