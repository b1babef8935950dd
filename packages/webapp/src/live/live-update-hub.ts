import type { MessageStateChangeNotifier, StateChange, StateChangeListener } from '@nimbus/message-store';

export type LiveUpdate =
  | { readonly type: 'endpointupdate'; readonly endpointId: string }
  | { readonly type: 'heartbeatupdate'; readonly endpointId: string }
  | { readonly type: 'servicehealthupdate'; readonly serviceId: string }
  /** Updates may have been missed (the notifier reconnected): browsers re-read everything shown. */
  | { readonly type: 'resync' }
  | {
      readonly type: 'bulkprogress';
      readonly jobId: string;
      readonly endpointId: string;
      /** Every endpoint the job acts on: only users who may read all of them hear of it. */
      readonly endpointIds: readonly string[];
      readonly processed: number;
      readonly total: number;
      readonly done: boolean;
    };

/** The SSE event each store change goes out as (the browser's names; the change itself is the store's). */
export function liveUpdateOf(change: StateChange): LiveUpdate {
  switch (change.kind) {
    case 'endpoint':
      return { type: 'endpointupdate', endpointId: change.endpointId };
    case 'heartbeat':
      return { type: 'heartbeatupdate', endpointId: change.endpointId };
    case 'serviceHealth':
      return { type: 'servicehealthupdate', serviceId: change.serviceId };
    case 'resync':
      return { type: 'resync' };
  }
}

export type LiveUpdateListener = (update: LiveUpdate) => void;

/** A state-change notifier the WebApp can listen to (the store package's `InProcessStateChangeNotifier`). */
export interface SubscribableNotifier extends MessageStateChangeNotifier {
  subscribe(listener: StateChangeListener): () => void;
}

/**
 * Fans state changes out to the browsers connected over SSE. It listens to the notifier the store tells
 * after each committed write; `notify` relays a change another process's store committed (the storage-hook
 * routes) to that notifier, so every listener hears about it.
 */
export class LiveUpdateHub implements MessageStateChangeNotifier {
  readonly #listeners = new Set<LiveUpdateListener>();
  readonly #unsubscribe: () => void;

  constructor(private readonly notifier: SubscribableNotifier) {
    this.#unsubscribe = notifier.subscribe((change) => this.publish(liveUpdateOf(change)));
  }

  subscribe(listener: LiveUpdateListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  /** Sends an update to connected browsers only (used for WebApp-local events such as bulk progress). */
  publish(update: LiveUpdate): void {
    for (const listener of this.#listeners) listener(update);
  }

  notify(change: StateChange): Promise<void> {
    return this.notifier.notify(change);
  }

  /** Stops listening to the notifier. */
  detach(): void {
    this.#unsubscribe();
  }
}
