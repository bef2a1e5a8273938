/**
 * The external interface of the deployed transfer contract `CashmereCCTP` as Solidity
 * signatures, copied from the public source (cashmere-prod/contracts-prod `evm/src/CashmereCCTP.sol`,
 * the deployment with `uint64 amount` and `uint128 fee` in the transfer parameters) and from the
 * OpenZeppelin Contracts v5 `AccessControl` it inherits (`contracts/access/IAccessControl.sol`
 * and `AccessControl.sol`), in viem's human-readable ABI form (`parseAbi`). The reference that
 * `cashmere-abi.test.ts` hashes (viem `toFunctionSelector` / `toEventSelector`) and compares with
 * the devnet contract's compiled ABI (`cashmereCctpAbi`).
 */
import type { Hex } from 'viem';

/** Struct parameters, field order and widths as declared in `CashmereCCTP.sol`. */
const STRUCTS = [
  'struct TransferParams { uint64 amount; uint128 fee; uint64 deadline; uint128 gasDropAmount; uint32 destinationDomain; bytes32 recipient; bytes32 solanaOwner; bool isNative; bytes signature; }',
  'struct TransferV2Params { uint64 amount; uint256 maxFee; uint128 fee; uint64 deadline; uint128 gasDropAmount; uint32 destinationDomain; uint32 minFinalityThreshold; bytes32 recipient; bytes32 solanaOwner; bool isNative; bytes hookData; bytes signature; }',
  'struct PermitParams { uint256 value; uint256 deadline; bytes signature; }',
] as const;

/**
 * Every external function, event and custom error of the deployed `CashmereCCTP`, with the
 * structs its functions take. `state()` returns the `State` struct's members in declaration
 * order (`feeBP` is the percentage fee in basis points of the amount, at most 100).
 */
export const CASHMERE_CCTP_SIGNATURES = [
  ...STRUCTS,
  // Transfers (payable: a native quote is paid in msg.value).
  'function transfer(TransferParams _params) payable',
  'function transferV2(TransferV2Params _params) payable',
  'function transferWithPermit(TransferParams _params, PermitParams _permitParams) payable',
  'function transferV2WithPermit(TransferV2Params _params, PermitParams _permitParams) payable',
  // Fees and public state.
  'function getFee(uint64 _amount, uint256 _staticFee) view returns (uint64)',
  'function state() view returns (address signer, uint32 nonce, uint32 maxUSDCGasDrop, uint16 feeBP, bool reentrancyLock, bool paused, uint128 maxNativeGasDrop, uint128 lastFeeWithdrawTimestamp)',
  'function localDomain() view returns (uint32)',
  'function tokenMessenger() view returns (address)',
  'function tokenMessengerV2() view returns (address)',
  'function usdc() view returns (address)',
  // Administration.
  'function setFeeBP(uint16 _feeBP)',
  'function setPaused(bool _paused)',
  'function setSigner(address _signer)',
  'function setMaxUSDCGasDrop(uint32 _newLimit)',
  'function setMaxNativeGasDrop(uint128 _newLimit)',
  'function withdrawFee(uint256 _usdcAmount, uint256 _nativeAmount, address _destination)',
  'function resetApprove()',
  // AccessControl (OpenZeppelin Contracts v5).
  'function DEFAULT_ADMIN_ROLE() view returns (bytes32)',
  'function hasRole(bytes32 role, address account) view returns (bool)',
  'function getRoleAdmin(bytes32 role) view returns (bytes32)',
  'function grantRole(bytes32 role, address account)',
  'function revokeRole(bytes32 role, address account)',
  'function renounceRole(bytes32 role, address callerConfirmation)',
  'function supportsInterface(bytes4 interfaceId) view returns (bool)',
  // Events.
  'event CashmereTransfer(uint32 destinationDomain, uint256 indexed nonce, bytes32 recipient, bytes32 solanaOwner, address indexed user, uint64 amount, uint256 gasDropAmount, bool isNative)',
  'event FeeBPUpdated(uint16 feeBP)',
  'event SignerUpdated(address newSigner)',
  'event FeeWithdraw(address destination, uint256 amount, uint256 nativeAmount)',
  'event PausedUpdated(bool paused)',
  'event MaxUSDCGasDropUpdated(uint64 newLimit)',
  'event MaxNativeGasDropUpdated(uint256 newLimit)',
  'event RoleAdminChanged(bytes32 indexed role, bytes32 indexed previousAdminRole, bytes32 indexed newAdminRole)',
  'event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)',
  'event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender)',
  // Custom errors.
  'error FeeExceedsAmount()',
  'error TransferFailed()',
  'error NativeTransferFailed()',
  'error InvalidSignature()',
  'error DeadlineExpired()',
  'error NativeAmountTooLow()',
  'error GasDropLimitExceeded()',
  'error WithdrawCooldownNotPassed()',
  'error WithdrawLimitExceeded()',
  'error ReentrancyError()',
  'error InvalidSignatureLength()',
  'error Paused()',
  'error BPTooHigh()',
  'error ZeroLimit()',
  'error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)',
  'error AccessControlBadConfirmation()',
] as const;

/**
 * The four transfer entry points' 4-byte selectors (keccak-256 of the canonical signature with
 * the structs as tuples): what calldata for the deployed contract starts with.
 */
export const CASHMERE_CCTP_SELECTORS = {
  transfer: '0x51f9ec78',
  transferV2: '0x6827806f',
  transferWithPermit: '0x8f9fc08b',
  transferV2WithPermit: '0xbd8f5542',
} as const satisfies Record<string, Hex>;
