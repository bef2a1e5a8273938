/** Serves an OpenAPI document at `/openapi.json` and a Swagger UI page at `/docs` (assets bundled, no CDN). */
import { Router, type Express, type NextFunction, type RequestHandler } from 'express';
import swaggerUi from 'swagger-ui-express';
import { mountRouter } from './metrics.js';
import { HttpProblem } from './problem.js';

/**
 * The swagger-ui-dist files the page swagger-ui-express renders loads (its `<link href>` and
 * `<script src>`), besides the generated `swagger-ui-init.js`: the only static files served.
 * swagger-ui-dist's README, LICENSE, `index.js`, demo `index.html`, petstore
 * `swagger-initializer.js`, `oauth2-redirect.*`, other bundles and source maps are not.
 */
export const DOCS_ASSETS: readonly string[] = [
  'favicon-16x16.png',
  'favicon-32x32.png',
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-init.js',
  'swagger-ui-standalone-preset.js',
];
const STATIC_ASSETS = new Set(
  DOCS_ASSETS.filter((f) => f !== 'swagger-ui-init.js').map((f) => `/${f}`),
);

/**
 * The error serve-static passes on for a `Range` no byte of the file satisfies (send: status 416
 * with `Content-Range: bytes *\/<size>` in `headers`), as a 416 problem carrying that header
 * (RFC 9110 section 15.5.17); any other error unchanged.
 */
function rangeProblem(err: unknown): unknown {
  if (typeof err !== 'object' || err === null) return err;
  const { status, headers } = err as { status?: unknown; headers?: Record<string, unknown> };
  if (status !== 416) return err;
  const contentRange = headers?.['Content-Range'];
  return new HttpProblem(
    416,
    'RANGE_NOT_SATISFIABLE',
    'Range: no part of the requested range is within the file',
    typeof contentRange === 'string' ? { 'Content-Range': contentRange } : {},
  );
}

/**
 * Mounts `GET /openapi.json` and `GET /docs` for `document` (an OpenAPI 3.x object). Under
 * `/docs/` only the page and the files it loads ({@link DOCS_ASSETS}) answer, `Range` on them
 * with 206 or a 416 problem (never a 500); any other
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
  docs.use((req, res, next: NextFunction) =>
    STATIC_ASSETS.has(req.path)
      ? assets(req, res, (err?: unknown) => (err === undefined ? next() : next(rangeProblem(err))))
      : next(),
  );
  docs.get('/', uiPage);
  mountRouter(app, '/docs', docs);
}
