/**
 * @deprecated The transfer record's network is `TransferNetwork` of `@ctss/domain-types`; this
 * old name stays only while the repositories still import it.
 */
export type { TransferNetwork as Network } from '@ctss/domain-types';
