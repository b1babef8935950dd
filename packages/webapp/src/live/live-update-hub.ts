import type { MessageStateChangeNotifier, StateChangeListener } from '@nimbus/message-store';

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

export type LiveUpdateListener = (update: LiveUpdate) => void;

/** A state-change notifier the WebApp can listen to (the store package's `InProcessStateChangeNotifier`). */
export interface SubscribableNotifier extends MessageStateChangeNotifier {
  subscribe(listener: StateChangeListener): () => void;
}

/**
 * Fans state changes out to the browsers connected over SSE. It listens to the provider-neutral notifier
 * (the one the Resolver writes through), and forwards the WebApp's own store writes to that notifier so
 * every listener hears about them.
 */
export class LiveUpdateHub implements MessageStateChangeNotifier {
  readonly #listeners = new Set<LiveUpdateListener>();
  readonly #unsubscribe: () => void;

  constructor(private readonly notifier: SubscribableNotifier) {
    this.#unsubscribe = notifier.subscribe((change) => {
      if (change.kind === 'endpoint') this.publish({ type: 'endpointupdate', endpointId: change.endpointId });
      else if (change.kind === 'resync') this.publish({ type: 'resync' });
      else if (change.kind === 'heartbeat')
        this.publish({ type: 'heartbeatupdate', endpointId: change.endpointId });
      else this.publish({ type: 'servicehealthupdate', serviceId: change.serviceId });
    });
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

  notifyEndpointStateChanged(endpointId: string): Promise<void> {
    return this.notifier.notifyEndpointStateChanged(endpointId);
  }

  notifyHeartbeatChanged(endpointId: string): Promise<void> {
    return this.notifier.notifyHeartbeatChanged(endpointId);
  }

  notifyServiceHealthChanged(serviceId: string): Promise<void> {
    return this.notifier.notifyServiceHealthChanged(serviceId);
  }

  /** Stops listening to the notifier. */
  detach(): void {
    this.#unsubscribe();
  }
}
