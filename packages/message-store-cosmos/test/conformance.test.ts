import { describeMessageStoreConformance } from '@nimbus/message-store/conformance';
import { startCosmosTestServer } from './support/cosmos-test-server.js';

// The real @azure/cosmos SDK against @vercel/cosmosdb-server over https (certificate made at start).
const cosmos = await startCosmosTestServer();
describeMessageStoreConformance('Cosmos DB (local server)', cosmos.factory);
