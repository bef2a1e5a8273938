/**
 * Circle's deployed CCTP contracts on EVM mainnets (docs/indexer.md "Configuration"), the
 * defaults of a mainnet chain's `tokenMessengers`, `messageTransmitters` and `usdc` by CCTP
 * domain. Sources: CCTP v2 "Contract Addresses"
 * (https://developers.circle.com/cctp/references/contract-addresses: TokenMessengerV2 and
 * MessageTransmitterV2 are deployed at the same address on every EVM chain), CCTP v1 "EVM
 * contracts and interfaces" (https://developers.circle.com/cctp/v1/evm-smart-contracts), and
 * Circle's USDC contract addresses (https://developers.circle.com/stablecoins/usdc-contract-addresses).
 * TokenMinter emits none of the events the indexer reads (the mint's `Transfer` comes from USDC,
 * `MintAndWithdraw` from the TokenMessenger), so it has no default; it may be configured.
 */

/** The Circle contracts of one chain whose logs the indexer reads (addresses lower case). */
export interface CircleContracts {
  /** TokenMessenger v1 and/or v2: `DepositForBurn`, `MintAndWithdraw`. */
  readonly tokenMessengers: readonly `0x${string}`[];
  /** MessageTransmitter v1 and/or v2: `MessageSent`, `MessageReceived`. */
  readonly messageTransmitters: readonly `0x${string}`[];
  /** The native USDC (FiatToken) contract: the ERC-20 `Transfer` of the deposit. */
  readonly usdc: `0x${string}`;
}

const lower = (a: string) => a.toLowerCase() as `0x${string}`;

/** TokenMessengerV2 on every EVM mainnet (CREATE2). */
const TOKEN_MESSENGER_V2 = lower('0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d');
/** MessageTransmitterV2 on every EVM mainnet (CREATE2). */
const MESSAGE_TRANSMITTER_V2 = lower('0x81D40F21F12A8F0E3252Bccb954D722d4c464B64');

/** v1 TokenMessenger, v1 MessageTransmitter and USDC by CCTP domain (v1 and v2 chains). */
const V1_AND_USDC: Readonly<Record<number, readonly [string, string, string]>> = {
  0: [
    '0xBd3fa81B58Ba92a82136038B25aDec7066af3155',
    '0x0a992d191DEeC32aFe36203Ad87D7d289a738F81',
    '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  ],
  1: [
    '0x6B25532e1060CE10cc3B0A99e5683b91BFDe6982',
    '0x8186359aF5F57FbB40c6b14A588d2A59C0C29880',
    '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E',
  ],
  2: [
    '0x2B4069517957735bE00ceE0fadAE88a26365528f',
    '0x4D41f22c5a0e5c74090899E5a8Fb597a8842b3e8',
    '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85',
  ],
  3: [
    '0x19330d10D9Cc8751218eaf51E8885D058642E08A',
    '0xC30362313FBBA5cf9163F0bb16a0e01f01A896ca',
    '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
  ],
  6: [
    '0x1682Ae6375C4E4A97e4B583BC394c861A46D8962',
    '0xAD09780d193884d503182aD4588450C416D6F9D4',
    '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  ],
  7: [
    '0x9daF8c91AEFAE50b9c0E69629D3F6Ca40cA3B3FE',
    '0xF3be9355363857F3e001be68856A2f96b4C39Ba9',
    '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
  ],
  10: [
    '0x4e744b28E787c3aD0e810eD65A24461D4ac5a762',
    '0x353bE9E2E38AB1D19104534e4edC21c643Df86f4',
    '0x078D782b760474a361dDA0AF3839290b0EF57AD6',
  ],
};

/**
 * Circle's mainnet contracts of a CCTP domain (v1 and v2 messengers and transmitters where v1
 * is deployed), or undefined for a domain without known defaults (every value must then be
 * configured).
 */
export function mainnetCircleContracts(domain: number): CircleContracts | undefined {
  const known = V1_AND_USDC[domain];
  if (!known) return undefined;
  const [messengerV1, transmitterV1, usdc] = known;
  return {
    tokenMessengers: [lower(messengerV1), TOKEN_MESSENGER_V2],
    messageTransmitters: [lower(transmitterV1), MESSAGE_TRANSMITTER_V2],
    usdc: lower(usdc),
  };
}
