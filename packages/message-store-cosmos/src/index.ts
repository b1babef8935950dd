export {
  COSMOS_ENV,
  type CosmosConnectionOptions,
  DEFAULT_COSMOS_DATABASE,
  resolveCosmosConnection,
} from './config/resolve-cosmos-connection.js';
export {
  COSMOS_PROVIDER_NAME,
  COSMOS_STORE_CAPABILITIES,
  type CosmosMessageStore,
  type CosmosMessageStoreOptions,
  cosmosStorageProvider,
  createCosmosMessageStore,
} from './create-cosmos-message-store.js';
export { LostWriteRaceError } from './store/cosmos-errors.js';
export { ENDPOINT_PARTITION_KEY, encodeId, STORE_CONTAINERS } from './store/layout.js';
