/**
 * Writes the Gas Quote API's OpenAPI document (the one `GET /openapi.json` serves, from
 * `buildOpenApiDocument`) to the file named by the first argument, or to stdout without one
 * (`node dist/bin/openapi.js dist/openapi.json`). Used by `pnpm lint` to lint the document with
 * Redocly (redocly.yaml). Exits 1 when the file cannot be written.
 */
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../openapi.js';

const text = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
const target = process.argv[2];
if (target) writeFileSync(target, text);
else process.stdout.write(text);
