/**
 * `@ctss/sdk`: verified relayer-fee quotes, transfer parameters for the deployed CashmereCCTP
 * contracts, sending with an allowance or an EIP-2612 permit, and settlement tracking from the
 * Monitoring API. Amounts are bigint base units throughout. Guide: docs/sdk.md.
 */
export { cashmereCctpAbi, usdcAbi } from './abi.js';
export {
  CIRCLE_IRIS_MAINNET_URL,
  MAINNET_EVM_DEPLOYMENTS,
  SOLANA_ASSOCIATED_TOKEN_PROGRAM_ID,
  SOLANA_TOKEN_PROGRAM_ID,
  SOLANA_USDC_MINT,
  type EvmDeployment,
} from './addresses.js';
export {
  CircleFeeEntry,
  CircleFeeTable,
  FALLBACK_FEE_MILLI_BPS,
  FINALITY_THRESHOLD,
  circleFeeRate,
  maxFeeFor,
  milliBps,
  type CircleFeeRate,
} from './circle-fees.js';
export {
  createCtssClient,
  type CtssClient,
  type CtssClientConfig,
  type OriginContext,
} from './client.js';
export {
  ApiProblemError,
  CtssSdkError,
  NetworkError,
  QuoteRefusedError,
  ResponseValidationError,
  TrackingEndedError,
  TransferInputError,
  type QuoteRefusalCode,
} from './errors.js';
export {
  GasQuoteClient,
  SdkRouteInfo,
  SdkRoutesResponse,
  type QuoteRequest,
} from './gas-quote-client.js';
export type { CallOptions, HttpOptions } from './http.js';
export { AMOUNT_KEYS, JsonReadError, parseJson } from './json.js';
export { MonitoringClient, type FeedQuery } from './monitoring-client.js';
export {
  ecdsaQuoteDigest,
  ed25519QuoteMessage,
  getQuote,
  verifyEcdsaQuote,
  verifyEd25519Quote,
  type EcdsaVerifiedQuote,
  type Ed25519VerifiedQuote,
  type GetQuoteOptions,
  type QuotePacking,
  type SignerIdentities,
  type VerifiedQuote,
  type VerifyOptions,
} from './quote.js';
export {
  ZERO_BYTES32,
  associatedTokenAddress,
  encodeRecipient,
  familyOf,
  findProgramAddress,
  type EncodedRecipient,
  type RecipientOptions,
} from './recipient.js';
export {
  readContractFeeBps,
  sendTransfer,
  signPermit,
  type ApprovalMode,
  type SendOptions,
  type SentTransfer,
} from './send.js';
export {
  TRANSFER_STAGES,
  trackTransfer,
  type TrackOptions,
  type TrackResult,
  type TransferProgress,
  type TransferStage,
} from './track.js';
export {
  buildTransfer,
  buildTransferPlan,
  quoteTransfer,
  transferCosts,
  type BuildContext,
  type ContractFeeSource,
  type CostInput,
  type FeeContext,
  type TransferCosts,
  type TransferInput,
  type TransferParamsV1,
  type TransferParamsV2,
  type TransferPlan,
  type TransferQuote,
} from './transfer.js';
