/**
 * Zod schemas of route discovery: the `GET /routes` query (validation and OpenAPI parameters) and
 * its response, from @ctss/domain-types.
 */
export { RoutesQuery, RoutesResponse } from '@ctss/domain-types';
