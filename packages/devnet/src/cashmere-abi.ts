/**
 * The external ABI of the transfer contract `CashmereCCTP` (cashmere-prod/contracts-prod
 * `evm/src/CashmereCCTP.sol`, the deployment with `uint64 amount` and `uint128 fee`), as compiled
 * from the devnet stand-in `contracts/CctpTestChain.sol` contract `CashmereCCTP` (solc output,
 * `internalType` left out). It is the deployed contract's ABI: every function selector, event
 * topic and custom-error selector is checked against the public source's signatures
 * ({@link CASHMERE_CCTP_SIGNATURES}) by `cashmere-abi.test.ts`, which also checks that this
 * constant is the compiler's output. Use it with viem (`encodeFunctionData`, `decodeEventLog`,
 * `readContract`) to build calldata for, or read, the deployed contracts.
 */
export const cashmereCctpAbi = [
  {
    inputs: [
      {
        name: 'tokenMessenger_',
        type: 'address',
      },
      {
        name: 'tokenMessengerV2_',
        type: 'address',
      },
      {
        name: 'usdc_',
        type: 'address',
      },
    ],
    stateMutability: 'nonpayable',
    type: 'constructor',
  },
  {
    inputs: [],
    name: 'AccessControlBadConfirmation',
    type: 'error',
  },
  {
    inputs: [
      {
        name: 'account',
        type: 'address',
      },
      {
        name: 'neededRole',
        type: 'bytes32',
      },
    ],
    name: 'AccessControlUnauthorizedAccount',
    type: 'error',
  },
  {
    inputs: [],
    name: 'BPTooHigh',
    type: 'error',
  },
  {
    inputs: [],
    name: 'DeadlineExpired',
    type: 'error',
  },
  {
    inputs: [],
    name: 'FeeExceedsAmount',
    type: 'error',
  },
  {
    inputs: [],
    name: 'GasDropLimitExceeded',
    type: 'error',
  },
  {
    inputs: [],
    name: 'InvalidSignature',
    type: 'error',
  },
  {
    inputs: [],
    name: 'InvalidSignatureLength',
    type: 'error',
  },
  {
    inputs: [],
    name: 'NativeAmountTooLow',
    type: 'error',
  },
  {
    inputs: [],
    name: 'NativeTransferFailed',
    type: 'error',
  },
  {
    inputs: [],
    name: 'Paused',
    type: 'error',
  },
  {
    inputs: [],
    name: 'ReentrancyError',
    type: 'error',
  },
  {
    inputs: [],
    name: 'TransferFailed',
    type: 'error',
  },
  {
    inputs: [],
    name: 'WithdrawCooldownNotPassed',
    type: 'error',
  },
  {
    inputs: [],
    name: 'WithdrawLimitExceeded',
    type: 'error',
  },
  {
    inputs: [],
    name: 'ZeroLimit',
    type: 'error',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: false,
        name: 'destinationDomain',
        type: 'uint32',
      },
      {
        indexed: true,
        name: 'nonce',
        type: 'uint256',
      },
      {
        indexed: false,
        name: 'recipient',
        type: 'bytes32',
      },
      {
        indexed: false,
        name: 'solanaOwner',
        type: 'bytes32',
      },
      {
        indexed: true,
        name: 'user',
        type: 'address',
      },
      {
        indexed: false,
        name: 'amount',
        type: 'uint64',
      },
      {
        indexed: false,
        name: 'gasDropAmount',
        type: 'uint256',
      },
      {
        indexed: false,
        name: 'isNative',
        type: 'bool',
      },
    ],
    name: 'CashmereTransfer',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: false,
        name: 'feeBP',
        type: 'uint16',
      },
    ],
    name: 'FeeBPUpdated',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: false,
        name: 'destination',
        type: 'address',
      },
      {
        indexed: false,
        name: 'amount',
        type: 'uint256',
      },
      {
        indexed: false,
        name: 'nativeAmount',
        type: 'uint256',
      },
    ],
    name: 'FeeWithdraw',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: false,
        name: 'newLimit',
        type: 'uint256',
      },
    ],
    name: 'MaxNativeGasDropUpdated',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: false,
        name: 'newLimit',
        type: 'uint64',
      },
    ],
    name: 'MaxUSDCGasDropUpdated',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: false,
        name: 'paused',
        type: 'bool',
      },
    ],
    name: 'PausedUpdated',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        name: 'role',
        type: 'bytes32',
      },
      {
        indexed: true,
        name: 'previousAdminRole',
        type: 'bytes32',
      },
      {
        indexed: true,
        name: 'newAdminRole',
        type: 'bytes32',
      },
    ],
    name: 'RoleAdminChanged',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        name: 'role',
        type: 'bytes32',
      },
      {
        indexed: true,
        name: 'account',
        type: 'address',
      },
      {
        indexed: true,
        name: 'sender',
        type: 'address',
      },
    ],
    name: 'RoleGranted',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        name: 'role',
        type: 'bytes32',
      },
      {
        indexed: true,
        name: 'account',
        type: 'address',
      },
      {
        indexed: true,
        name: 'sender',
        type: 'address',
      },
    ],
    name: 'RoleRevoked',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: false,
        name: 'newSigner',
        type: 'address',
      },
    ],
    name: 'SignerUpdated',
    type: 'event',
  },
  {
    inputs: [],
    name: 'DEFAULT_ADMIN_ROLE',
    outputs: [
      {
        name: '',
        type: 'bytes32',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        name: '_amount',
        type: 'uint64',
      },
      {
        name: '_staticFee',
        type: 'uint256',
      },
    ],
    name: 'getFee',
    outputs: [
      {
        name: '',
        type: 'uint64',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        name: 'role',
        type: 'bytes32',
      },
    ],
    name: 'getRoleAdmin',
    outputs: [
      {
        name: '',
        type: 'bytes32',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        name: 'role',
        type: 'bytes32',
      },
      {
        name: 'account',
        type: 'address',
      },
    ],
    name: 'grantRole',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        name: 'role',
        type: 'bytes32',
      },
      {
        name: 'account',
        type: 'address',
      },
    ],
    name: 'hasRole',
    outputs: [
      {
        name: '',
        type: 'bool',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'localDomain',
    outputs: [
      {
        name: '',
        type: 'uint32',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        name: 'role',
        type: 'bytes32',
      },
      {
        name: 'callerConfirmation',
        type: 'address',
      },
    ],
    name: 'renounceRole',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [],
    name: 'resetApprove',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        name: 'role',
        type: 'bytes32',
      },
      {
        name: 'account',
        type: 'address',
      },
    ],
    name: 'revokeRole',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        name: '_feeBP',
        type: 'uint16',
      },
    ],
    name: 'setFeeBP',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        name: '_newLimit',
        type: 'uint128',
      },
    ],
    name: 'setMaxNativeGasDrop',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        name: '_newLimit',
        type: 'uint32',
      },
    ],
    name: 'setMaxUSDCGasDrop',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        name: '_paused',
        type: 'bool',
      },
    ],
    name: 'setPaused',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        name: '_signer',
        type: 'address',
      },
    ],
    name: 'setSigner',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [],
    name: 'state',
    outputs: [
      {
        name: 'signer',
        type: 'address',
      },
      {
        name: 'nonce',
        type: 'uint32',
      },
      {
        name: 'maxUSDCGasDrop',
        type: 'uint32',
      },
      {
        name: 'feeBP',
        type: 'uint16',
      },
      {
        name: 'reentrancyLock',
        type: 'bool',
      },
      {
        name: 'paused',
        type: 'bool',
      },
      {
        name: 'maxNativeGasDrop',
        type: 'uint128',
      },
      {
        name: 'lastFeeWithdrawTimestamp',
        type: 'uint128',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        name: 'interfaceId',
        type: 'bytes4',
      },
    ],
    name: 'supportsInterface',
    outputs: [
      {
        name: '',
        type: 'bool',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'tokenMessenger',
    outputs: [
      {
        name: '',
        type: 'address',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'tokenMessengerV2',
    outputs: [
      {
        name: '',
        type: 'address',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        components: [
          {
            name: 'amount',
            type: 'uint64',
          },
          {
            name: 'fee',
            type: 'uint128',
          },
          {
            name: 'deadline',
            type: 'uint64',
          },
          {
            name: 'gasDropAmount',
            type: 'uint128',
          },
          {
            name: 'destinationDomain',
            type: 'uint32',
          },
          {
            name: 'recipient',
            type: 'bytes32',
          },
          {
            name: 'solanaOwner',
            type: 'bytes32',
          },
          {
            name: 'isNative',
            type: 'bool',
          },
          {
            name: 'signature',
            type: 'bytes',
          },
        ],
        name: '_params',
        type: 'tuple',
      },
    ],
    name: 'transfer',
    outputs: [],
    stateMutability: 'payable',
    type: 'function',
  },
  {
    inputs: [
      {
        components: [
          {
            name: 'amount',
            type: 'uint64',
          },
          {
            name: 'maxFee',
            type: 'uint256',
          },
          {
            name: 'fee',
            type: 'uint128',
          },
          {
            name: 'deadline',
            type: 'uint64',
          },
          {
            name: 'gasDropAmount',
            type: 'uint128',
          },
          {
            name: 'destinationDomain',
            type: 'uint32',
          },
          {
            name: 'minFinalityThreshold',
            type: 'uint32',
          },
          {
            name: 'recipient',
            type: 'bytes32',
          },
          {
            name: 'solanaOwner',
            type: 'bytes32',
          },
          {
            name: 'isNative',
            type: 'bool',
          },
          {
            name: 'hookData',
            type: 'bytes',
          },
          {
            name: 'signature',
            type: 'bytes',
          },
        ],
        name: '_params',
        type: 'tuple',
      },
    ],
    name: 'transferV2',
    outputs: [],
    stateMutability: 'payable',
    type: 'function',
  },
  {
    inputs: [
      {
        components: [
          {
            name: 'amount',
            type: 'uint64',
          },
          {
            name: 'maxFee',
            type: 'uint256',
          },
          {
            name: 'fee',
            type: 'uint128',
          },
          {
            name: 'deadline',
            type: 'uint64',
          },
          {
            name: 'gasDropAmount',
            type: 'uint128',
          },
          {
            name: 'destinationDomain',
            type: 'uint32',
          },
          {
            name: 'minFinalityThreshold',
            type: 'uint32',
          },
          {
            name: 'recipient',
            type: 'bytes32',
          },
          {
            name: 'solanaOwner',
            type: 'bytes32',
          },
          {
            name: 'isNative',
            type: 'bool',
          },
          {
            name: 'hookData',
            type: 'bytes',
          },
          {
            name: 'signature',
            type: 'bytes',
          },
        ],
        name: '_params',
        type: 'tuple',
      },
      {
        components: [
          {
            name: 'value',
            type: 'uint256',
          },
          {
            name: 'deadline',
            type: 'uint256',
          },
          {
            name: 'signature',
            type: 'bytes',
          },
        ],
        name: '_permitParams',
        type: 'tuple',
      },
    ],
    name: 'transferV2WithPermit',
    outputs: [],
    stateMutability: 'payable',
    type: 'function',
  },
  {
    inputs: [
      {
        components: [
          {
            name: 'amount',
            type: 'uint64',
          },
          {
            name: 'fee',
            type: 'uint128',
          },
          {
            name: 'deadline',
            type: 'uint64',
          },
          {
            name: 'gasDropAmount',
            type: 'uint128',
          },
          {
            name: 'destinationDomain',
            type: 'uint32',
          },
          {
            name: 'recipient',
            type: 'bytes32',
          },
          {
            name: 'solanaOwner',
            type: 'bytes32',
          },
          {
            name: 'isNative',
            type: 'bool',
          },
          {
            name: 'signature',
            type: 'bytes',
          },
        ],
        name: '_params',
        type: 'tuple',
      },
      {
        components: [
          {
            name: 'value',
            type: 'uint256',
          },
          {
            name: 'deadline',
            type: 'uint256',
          },
          {
            name: 'signature',
            type: 'bytes',
          },
        ],
        name: '_permitParams',
        type: 'tuple',
      },
    ],
    name: 'transferWithPermit',
    outputs: [],
    stateMutability: 'payable',
    type: 'function',
  },
  {
    inputs: [],
    name: 'usdc',
    outputs: [
      {
        name: '',
        type: 'address',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        name: '_usdcAmount',
        type: 'uint256',
      },
      {
        name: '_nativeAmount',
        type: 'uint256',
      },
      {
        name: '_destination',
        type: 'address',
      },
    ],
    name: 'withdrawFee',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
] as const;
