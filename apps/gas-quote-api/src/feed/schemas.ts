/**
 * Zod schemas of the WebSocket feed: the `fees` and `tokenPrices` messages (docs/api.md
 * "WebSocket subscribe"), from @ctss/domain-types.
 */
export { FeesMessage, TokenPricesMessage } from '@ctss/domain-types';
