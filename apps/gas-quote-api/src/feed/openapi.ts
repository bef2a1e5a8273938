/** OpenAPI description of the WebSocket feed (docs/api.md "WebSocket subscribe"). */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from '@ctss/domain-types';
import { problemResponse } from '../openapi-responses.js';
import { SUBSCRIBE_PATH } from './router.js';
import { FeesMessage, TokenPricesMessage } from './schemas.js';

/**
 * Registers `GET /subscribe` with the messages it sends after the upgrade (the `FeesMessage` and
 * `TokenPricesMessage` components, as the 101 response's content) and the refused handshakes.
 */
export function registerFeedPaths(registry: OpenAPIRegistry): void {
  const fees = registry.register('FeesMessage', FeesMessage);
  const prices = registry.register('TokenPricesMessage', TokenPricesMessage);
  registry.registerPath({
    method: 'get',
    path: SUBSCRIBE_PATH,
    operationId: 'subscribe',
    summary:
      'WebSocket (GET upgrade): the latest `fees` and `tokenPrices` messages on connect, then every update',
    description:
      'After the upgrade every message is a JSON text frame, a FeesMessage or a TokenPricesMessage (the 101 content). The client sends nothing; the server pings.',
    responses: {
      101: {
        description: 'Switching protocols; then the messages of the content, one per text frame',
        content: { 'application/json': { schema: z.union([fees, prices]) } },
      },
      400: problemResponse('BAD_REQUEST: a request target that cannot be parsed'),
      403: problemResponse('FORBIDDEN: a browser Origin outside CORS_ORIGINS'),
      429: problemResponse(
        'RATE_LIMITED: over the HTTP rate limit, or WS_MAX_CONNECTIONS_PER_IP connections already open; Retry-After says when to retry',
      ),
    },
  });
}
