import type { MessageStateChangeNotifier } from '@nimbus/message-store';

export type LiveUpdate =
  | { readonly type: 'endpointupdate'; readonly endpointId: string }
  | { readonly type: 'heartbeatupdate'; readonly endpointId: string }
  | { readonly type: 'servicehealthupdate'; readonly serviceId: string }
  | {
      readonly type: 'bulkprogress';
      readonly jobId: string;
      readonly endpointId: string;
      readonly processed: number;
      readonly total: number;
      readonly done: boolean;
    };

export type LiveUpdateListener = (update: LiveUpdate) => void;

/**
 * A state-change notifier that fans out to the browsers connected over SSE. Give it to the Resolver (or
 * whatever writes the store in this process) as its notifier; other processes reach it through the
 * storage-hook routes.
 */
export class LiveUpdateHub implements MessageStateChangeNotifier {
  readonly #listeners = new Set<LiveUpdateListener>();

  subscribe(listener: LiveUpdateListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  publish(update: LiveUpdate): void {
    for (const listener of this.#listeners) listener(update);
  }

  async notifyEndpointStateChanged(endpointId: string): Promise<void> {
    this.publish({ type: 'endpointupdate', endpointId });
  }

  async notifyHeartbeatChanged(endpointId: string): Promise<void> {
    this.publish({ type: 'heartbeatupdate', endpointId });
  }

  async notifyServiceHealthChanged(serviceId: string): Promise<void> {
    this.publish({ type: 'servicehealthupdate', serviceId });
  }
}

export function createLiveUpdateHub(): LiveUpdateHub {
  return new LiveUpdateHub();
}
