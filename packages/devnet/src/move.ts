/**
 * `@ctss/devnet/move`: the local Move chains (docs/indexer.md "Sui and Aptos"), a subpath of
 * their own so that importing `@ctss/devnet` does not load the Sui and Aptos libraries. A local
 * Sui GraphQL RPC on Sui's published schema (fake-sui.ts) and a local Aptos Indexer GraphQL and
 * node REST (fake-aptos.ts), with transfer events built by `@mysten/sui` and
 * `@aptos-labs/ts-sdk` (sui-cctp.ts, aptos-cctp.ts) and the CCTP v1 message they carry
 * (move-data.ts). Used by the monitoring API's Sui and Aptos tests and by `pnpm bench:indexer`.
 */
export * from './fake-sui.js';
export * from './fake-aptos.js';
export * from './move-data.js';
export * from './sui-cctp.js';
export * from './aptos-cctp.js';
