/** Serves an OpenAPI document at `/openapi.json` and a Swagger UI page at `/docs` (assets bundled, no CDN). */
import type { Express, RequestHandler } from 'express';
import swaggerUi from 'swagger-ui-express';

/** Mounts `GET /openapi.json` and `GET /docs` for `document` (an OpenAPI 3.x object). */
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
  const uiAssets = swaggerUi.serve;
  const uiPage = swaggerUi.setup(document);
  app.use('/docs', relaxCsp, ...uiAssets, uiPage);
}
