/**
 * The HTTP side of the local Move chains (docs/indexer.md "Sui and Aptos"): the Sui GraphQL RPC
 * (fake-sui.ts) and the Aptos Indexer GraphQL with the node REST (fake-aptos.ts). A server on
 * 127.0.0.1 (a free port) reads each request's body, executes a `POST` to the GraphQL path with
 * graphql-js (`{ query, variables }` in JSON, the result answered 200 with its `data` and
 * `errors`), and hands other requests to the caller's REST routes. Errors are answered as a
 * GraphQL server answers them (GraphQL over HTTP, https://graphql.github.io/graphql-over-http/):
 * a JSON body `{"errors":[{"message":...}]}` naming the error, 400 for a body that is not a
 * GraphQL request, 404 for a path nothing serves, 500 for a failure of the server itself.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { graphql, type GraphQLSchema } from 'graphql';

/** A JSON answer: HTTP status and the body (serialized with `JSON.stringify`). */
interface JsonAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** What {@link serveGraphql} serves. */
export interface GraphqlServerOptions {
  readonly schema: GraphQLSchema;
  /** The resolvers, by root field name (graphql-js `rootValue`). */
  readonly rootValue: unknown;
  /** The path of the GraphQL endpoint, e.g. `/graphql`. */
  readonly graphqlPath: string;
  /**
   * Answers the requests to other paths (or other methods).
   *
   * @returns undefined for a request it does not serve (answered 404).
   * @throws for a failure of the server (answered 500 with the message).
   */
  readonly rest?: (method: string, url: URL) => JsonAnswer | undefined;
  /** Called once per request, when its body has been read. */
  readonly onRequest?: () => void;
}

/** A running server. */
export interface GraphqlServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly base: string;
  /** Closes the open connections and the server. */
  close(): Promise<void>;
}

/** An error of the request itself (answered 400). */
class BadRequest extends Error {}

/** The GraphQL error answer naming `message`. */
const errorAnswer = (status: number, message: string): JsonAnswer => ({
  status,
  body: { errors: [{ message }] },
});

/**
 * The `{ query, variables }` of a GraphQL request body.
 *
 * @throws BadRequest when the body is not JSON, has no `query` string, or its `variables` is not
 *   an object.
 */
function graphqlRequest(body: string): { query: string; variables: Record<string, unknown> } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (err) {
    throw new BadRequest(`the body is not JSON: ${(err as Error).message}`);
  }
  const { query, variables } = (parsed ?? {}) as { query?: unknown; variables?: unknown };
  if (typeof query !== 'string') throw new BadRequest('the body has no `query` string');
  if (variables !== undefined && variables !== null && typeof variables !== 'object')
    throw new BadRequest('`variables` is not an object');
  return { query, variables: (variables ?? {}) as Record<string, unknown> };
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Sends `answer` (a body that cannot be serialized: 500 naming why) unless a response has already
 * begun, in which case the connection is cut.
 */
function send(res: ServerResponse, answer: JsonAnswer): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  let status = answer.status;
  let body: string;
  try {
    body = JSON.stringify(answer.body);
  } catch (err) {
    status = 500;
    body = JSON.stringify(errorAnswer(500, `the answer is not JSON: ${messageOf(err)}`).body);
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body);
}

/** Reads a request's whole body as UTF-8. */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
    req.on('error', reject);
  });
}

/** Starts the server on 127.0.0.1 (a free port). */
export async function serveGraphql(o: GraphqlServerOptions): Promise<GraphqlServer> {
  const answer = async (req: IncomingMessage): Promise<JsonAnswer> => {
    const body = await readBody(req);
    o.onRequest?.();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    if (url.pathname === o.graphqlPath && method === 'POST') {
      const { query, variables } = graphqlRequest(body);
      const result = await graphql({
        schema: o.schema,
        source: query,
        rootValue: o.rootValue,
        variableValues: variables,
      });
      return { status: 200, body: result };
    }
    return o.rest?.(method, url) ?? errorAnswer(404, `nothing served at ${method} ${url.pathname}`);
  };
  const server = createServer((req, res) => {
    void answer(req)
      .catch((err: unknown) => errorAnswer(err instanceof BadRequest ? 400 : 500, messageOf(err)))
      .then((a) => send(res, a))
      .catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
