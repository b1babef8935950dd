/** Told after a write has been persisted, so live views (the WebApp's push) can refresh. */
export interface MessageStateChangeNotifier {
  notifyEndpointStateChanged(endpointId: string): Promise<void>;
  notifyHeartbeatChanged(endpointId: string): Promise<void>;
  notifyServiceHealthChanged(serviceId: string): Promise<void>;
}

export const noopStateChangeNotifier: MessageStateChangeNotifier = Object.freeze({
  notifyEndpointStateChanged: async () => {},
  notifyHeartbeatChanged: async () => {},
  notifyServiceHealthChanged: async () => {},
});
