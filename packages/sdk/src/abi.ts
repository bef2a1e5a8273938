/**
 * The ABIs the SDK calls. `cashmereCctpAbi` is the deployed CashmereCCTP transfer contract's
 * (cashmere-prod/contracts-prod `evm/src/CashmereCCTP.sol`, the version the contracts deployed
 * today and cashmere-prod/cashmere-agent-sdk `src/chains/evm.ts` call): `uint64 amount`,
 * `uint128 fee`, `uint64 deadline`, `uint128 gasDropAmount`, and a `solanaOwner` in both
 * parameter structs; the quote digest packs `uint32, uint32, uint128, uint64, bool, uint8`
 * (the `compact` packing of docs/api.md "ECDSA quote").
 */
import { parseAbi } from 'viem';

/** CashmereCCTP: transfers (plain and with an EIP-2612 permit), fee and state getters, errors, event. */
export const cashmereCctpAbi = parseAbi([
  'struct TransferParams { uint64 amount; uint128 fee; uint64 deadline; uint128 gasDropAmount; uint32 destinationDomain; bytes32 recipient; bytes32 solanaOwner; bool isNative; bytes signature; }',
  'struct TransferV2Params { uint64 amount; uint256 maxFee; uint128 fee; uint64 deadline; uint128 gasDropAmount; uint32 destinationDomain; uint32 minFinalityThreshold; bytes32 recipient; bytes32 solanaOwner; bool isNative; bytes hookData; bytes signature; }',
  'struct PermitParams { uint256 value; uint256 deadline; bytes signature; }',
  'function transfer(TransferParams _params) payable',
  'function transferV2(TransferV2Params _params) payable',
  'function transferWithPermit(TransferParams _params, PermitParams _permitParams) payable',
  'function transferV2WithPermit(TransferV2Params _params, PermitParams _permitParams) payable',
  'function getFee(uint64 _amount, uint256 _staticFee) view returns (uint64)',
  'function state() view returns (address signer, uint32 nonce, uint32 maxUSDCGasDrop, uint16 feeBP, bool reentrancyLock, bool paused, uint128 maxNativeGasDrop, uint128 lastFeeWithdrawTimestamp)',
  'function localDomain() view returns (uint32)',
  'function usdc() view returns (address)',
  'event CashmereTransfer(uint32 destinationDomain, uint256 indexed nonce, bytes32 recipient, bytes32 solanaOwner, address indexed user, uint64 amount, uint256 gasDropAmount, bool isNative)',
  'error FeeExceedsAmount()',
  'error TransferFailed()',
  'error NativeTransferFailed()',
  'error InvalidSignature()',
  'error DeadlineExpired()',
  'error NativeAmountTooLow()',
  'error GasDropLimitExceeded()',
  'error ReentrancyError()',
  'error InvalidSignatureLength()',
  'error Paused()',
]);

/**
 * The bridge asset's calls: ERC-20 allowance/approve/balance, EIP-2612 `nonces`, and the EIP-712
 * domain (EIP-5267 `eip712Domain`, or FiatToken's `name`/`version`/`DOMAIN_SEPARATOR`) a permit is
 * signed for.
 */
export const usdcAbi = parseAbi([
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
  'function nonces(address owner) view returns (uint256)',
  'function name() view returns (string)',
  'function version() view returns (string)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)',
]);
