/** The users paths in the generated OpenAPI document. */
import { describe, expect, it } from '@jest/globals';
import { buildOpenApiDocument } from '../../src/openapi.js';

interface Doc {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }
    >
  >;
  components: { schemas: Record<string, unknown> };
}

describe('users OpenAPI', () => {
  const doc = buildOpenApiDocument() as Doc;

  it('when generated, then every users path is documented with its parameters and error responses', () => {
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/users/leaderboard', '/users', '/users/messages', '/users/verify']),
    );
    expect(doc.paths['/users/leaderboard']?.get?.parameters?.map((p) => p.name)).toEqual([
      'network',
      'limit',
      'offset',
      'search',
    ]);
    expect(doc.paths['/users/messages']?.get?.parameters?.map((p) => p.name)).toEqual([
      'username',
      'address',
      'chain_type',
    ]);
    expect(Object.keys(doc.paths['/users/verify']?.post?.responses ?? {})).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '410',
      '413',
      '415',
      '429',
      '503',
    ]);
  });

  it('when generated, then every rate-limited operation declares 429 and every probe its 400', () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const operation of Object.values(operations)) {
        const statuses = Object.keys(operation.responses);
        const probe = path === '/health' || path === '/ready';
        expect({ path, has429: statuses.includes('429') }).toEqual({ path, has429: !probe });
        expect({ path, has400: statuses.includes('400') }).toEqual({ path, has400: true });
      }
    }
  });

  it('when generated, then the response schemas come from domain-types', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'LeaderboardPage',
        'WalletsQueryResponse',
        'DomainAggregate',
        'BindingNonce',
        'VerifyRequest',
        'VerifyResponse',
      ]),
    );
  });
});
