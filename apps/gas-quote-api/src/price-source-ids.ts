/**
 * Default identifiers of each native token at the USD price sources, the defaults of the
 * PYTH_FEED_IDS and PRICE_FALLBACK_IDS settings (README.md "Configuration").
 */

/**
 * Default Pyth price feed ids (https://pyth.network/developers/price-feed-ids) per native symbol.
 * Symbols without a feed here (POL, S, SEI) come from the fallback source unless configured
 * through PYTH_FEED_IDS.
 */
export const DEFAULT_PYTH_FEED_IDS: Readonly<Record<string, string>> = {
  ETH: '0xff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace',
  SOL: '0xef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d',
  AVAX: '0x93da3352f9f1d105fdfe4971cfa80e9dd777bfc5d0f683ebb6e1294b92137bb7',
  SUI: '0x23d7315113f5b1d3ba7a83604c44b94d79f4fd69af77f804fc7f920a6dc65744',
  APT: '0x03ae4db29ed4ae33d323568895aa00337e658e348b37509f5372ae51f0af00d5',
  MON: '0x31491744e2dbf6df7fcf4ac0820d18a609b49076d45066d3568424e62f686cd1',
  HYPE: '0x4279e31cc369bbcc2faf022b382b080e32a8e689ff20fbc530d2a603eb6cd98b',
};

/** Default CoinGecko coin ids per native symbol. */
export const DEFAULT_COINGECKO_IDS: Readonly<Record<string, string>> = {
  ETH: 'ethereum',
  SOL: 'solana',
  AVAX: 'avalanche-2',
  POL: 'polygon-ecosystem-token',
  SUI: 'sui',
  APT: 'aptos',
  S: 'sonic-3',
  MON: 'monad',
  SEI: 'sei-network',
  HYPE: 'hyperliquid',
};
