/** OpenAPI description of the WebSocket feed (docs/api.md "WebSocket subscribe"). */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { SUBSCRIBE_PATH } from './router.js';
import { FeesMessage, TokenPricesMessage } from './schemas.js';

/** Registers the `FeesMessage` and `TokenPricesMessage` components and `GET /subscribe`. */
export function registerFeedPaths(registry: OpenAPIRegistry): void {
  registry.register('FeesMessage', FeesMessage);
  registry.register('TokenPricesMessage', TokenPricesMessage);
  registry.registerPath({
    method: 'get',
    path: SUBSCRIBE_PATH,
    summary:
      'WebSocket (GET upgrade): the latest `fees` and `tokenPrices` messages on connect, then every update',
    description:
      'Messages are FeesMessage and TokenPricesMessage (components). The client sends nothing; the server pings.',
    responses: { 101: { description: 'Switching protocols' } },
  });
}
