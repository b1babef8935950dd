import { describeWebAppApi } from './support/api-suite.js';
import { memoryStores } from './support/store-factories.js';

describeWebAppApi(memoryStores);
