import { describeWebAppApi } from './support/api-suite.js';
import { sqliteIdentityStores } from './support/store-factories.js';

describeWebAppApi(sqliteIdentityStores);
