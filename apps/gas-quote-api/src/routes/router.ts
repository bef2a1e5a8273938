/** `GET /routes` (docs/api.md "Routes"): route discovery over HTTP; the listing is routes/service.ts. */
import { parseQuery, sendJsonText } from '@ctss/server-kit';
import type { Express } from 'express';
import { RoutesQuery } from './schemas.js';
import type { RoutesService } from './service.js';

/** Path of the route discovery endpoint. */
export const ROUTES_PATH = '/routes';

/** What the route discovery uses: the routes service. */
export interface RoutesRouteDeps {
  readonly routes: RoutesService;
}

/**
 * Adds `GET /routes[?localDomain=&destinationDomain=]` to `app`: a malformed, repeated or unknown
 * parameter is 400 INVALID_QUERY; the other errors are those of RoutesService.list. The listing
 * is never cached by clients (`Cache-Control: no-store`: its fees are of this moment).
 */
export function addRoutesRoutes(app: Express, deps: RoutesRouteDeps): void {
  const { routes } = deps;
  app.get(ROUTES_PATH, async (req, res) => {
    const listing = await routes.list(parseQuery(RoutesQuery, req.query));
    res.setHeader('Cache-Control', 'no-store');
    sendJsonText(res, 200, JSON.stringify(listing));
  });
}
