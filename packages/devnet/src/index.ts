/**
 * Local CCTP chains for tests and the demo (docs/indexer.md "Tests", "Demo"): anvil from
 * `@foundry-rs/anvil`, the stand-in contracts deployed as one CCTP domain per chain, a local Iris
 * speaking Circle's response format, transfers made as a user would, and the apps' built entry
 * points run as child processes.
 */
export * from './anvil.js';
export * from './cctp-chain.js';
export * from './child.js';
export * from './entries.js';
export * from './fake-iris.js';
export * from './cashmere-abi.js';
export * from './cashmere-signatures.js';
export * from './solana-cluster.js';
export * from './solana-cctp.js';
