/**
 * The one notification vocabulary: what a committed store write changed. Every emitter (the store's
 * notification link, the co-located projection), every carrier (in-process, PostgreSQL, SQLite, the
 * storage-hook routes) and every consumer (the WebApp's live stream, the CLI) speaks it. A change carries
 * ids only: listeners re-read what they show.
 */
export type StateChange =
  | { readonly kind: 'endpoint'; readonly endpointId: string }
  | { readonly kind: 'heartbeat'; readonly endpointId: string }
  | { readonly kind: 'serviceHealth'; readonly serviceId: string }
  /**
   * Changes may have been missed (a cross-process notifier reconnected or fell behind): re-read
   * everything shown. In-process notifiers never send it.
   */
  | { readonly kind: 'resync' };

export type StateChangeKind = StateChange['kind'];

export type StateChangeListener = (change: StateChange) => void | Promise<void>;

/** Told after a write has been committed, so live views (the WebApp's push) can refresh. */
export interface MessageStateChangeNotifier {
  notify(change: StateChange): Promise<void>;
}

export const noopStateChangeNotifier: MessageStateChangeNotifier = Object.freeze({
  notify: async () => {},
});

/** The endpoint or service id a change names (empty for a resync). */
export function changedId(change: StateChange): string {
  if (change.kind === 'resync') return '';
  return change.kind === 'serviceHealth' ? change.serviceId : change.endpointId;
}
