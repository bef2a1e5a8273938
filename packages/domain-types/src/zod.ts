/**
 * The project's zod instance, extended with `.openapi()` metadata so that every schema in this
 * package is also the source of the OpenAPI documents (@asteasolutions/zod-to-openapi).
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };
