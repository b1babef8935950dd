import { describeWebAppApi } from './support/api-suite.js';
import { cosmosStores } from './support/store-factories.js';

describeWebAppApi(cosmosStores);
