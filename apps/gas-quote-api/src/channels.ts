/**
 * The KvStore names the feeder (writer) and the WebSocket feed (reader) share (docs/architecture.md
 * "Price path"): the pub/sub channel of updates and the keys of the latest messages.
 */

/** Pub/sub channel carrying every SubscribeMessage (@ctss/domain-types) as JSON. */
export const UPDATES_CHANNEL = 'quote-updates';
/** Store keys of the latest published messages, sent to WebSocket clients on connect. */
export const LATEST_KEYS = { fees: 'latest:fees', tokenPrices: 'latest:tokenPrices' } as const;
