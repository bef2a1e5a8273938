/**
 * @ctss/domain-types: CCTP domains, the chain registry, and one zod schema per resource of
 * docs/api.md (types inferred from them, OpenAPI generated from them).
 */
export * from './chains.js';
export { z } from './zod.js';
export * from './schemas/primitives.js';
export * from './schemas/networks.js';
export * from './schemas/transactions.js';
export * from './schemas/users.js';
export * from './schemas/stats.js';
export * from './schemas/quotes.js';
export * from './schemas/problem.js';
export * from './schemas/routes.js';
