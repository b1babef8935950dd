import { describeWebAppApi } from './support/api-suite.js';
import { sqliteStores } from './support/store-factories.js';

describeWebAppApi(sqliteStores);
