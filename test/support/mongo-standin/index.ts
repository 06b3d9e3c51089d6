/** MongoDB wire-protocol stand-in for tests; see server.ts. */
export { startMongoStandIn, type MongoStandIn } from './server.js';
