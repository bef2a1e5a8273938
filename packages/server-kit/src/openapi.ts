/** Serves an OpenAPI document at `/openapi.json` and a Swagger UI page at `/docs` (assets bundled, no CDN). */
import { Router, type Express, type RequestHandler } from 'express';
import swaggerUi from 'swagger-ui-express';
import { mountRouter } from './metrics.js';

/** Files of the swagger-ui-dist folder that are not the UI's assets (its own demo page and manifest). */
const NOT_ASSETS = new Set(['/index.html', '/package.json']);

/**
 * Mounts `GET /openapi.json` and `GET /docs` for `document` (an OpenAPI 3.x object). Under
 * `/docs/` only the page, its generated init script and the UI's static assets answer; any other
 * path falls through to the app's 404 problem (swagger-ui-express alone answers every path with
 * the page, and some with a text 404).
 */
export function serveOpenApi(app: Express, document: object): void {
  app.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  // The Swagger UI page loads its own inline script, which helmet's default CSP forbids.
  const relaxCsp: RequestHandler = (_req, res, next) => {
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
    );
    next();
  };
  // swagger-ui-express's `serve` is [init script handler, express.static over swagger-ui-dist];
  // `setup` renders the page and sets the document the init script carries.
  const [initScript, assets] = swaggerUi.serve as [RequestHandler, RequestHandler];
  const uiPage = swaggerUi.setup(document);
  const docs = Router({ strict: true });
  docs.use(relaxCsp);
  docs.get('/swagger-ui-init.js', initScript);
  docs.use((req, res, next) => (NOT_ASSETS.has(req.path) ? next() : assets(req, res, next)));
  docs.get('/', uiPage);
  mountRouter(app, '/docs', docs);
}
