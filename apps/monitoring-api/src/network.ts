/**
 * The network a transfer record belongs to (`transactions.network`): `mainnet` is served by
 * `/transactionsmainnet` and the mainnet statistics, `testnet` (testnet and staging chains) by
 * `/transactions` and `/stats/wallets` (docs/api.md "Transaction feeds").
 */
export type Network = 'mainnet' | 'testnet';
