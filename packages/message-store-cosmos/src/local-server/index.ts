export { type LoopbackCertificate, loopbackCertificate } from './loopback-certificate.js';
export { type LocalCosmosStore, openLocalCosmosMessageStore } from './open-local-cosmos-store.js';
export {
  LOCAL_COSMOS_KEY,
  type LocalCosmosServer,
  type LocalCosmosServerOptions,
  startLocalCosmosServer,
} from './start-local-cosmos-server.js';
export { advanceLocalServerClock } from './ttl-expiry-patch.js';
