/**
 * Wallet binding (docs/api.md "Wallet binding"; docs/decisions.md "D11. Binding message and
 * nonce rules", "D12. Wallet signature schemes"). Failures: 400 bad input, 401 bad signature (or a message issued for
 * another username / address / chain), 404 unknown username, 409 ALREADY_BOUND / NOT_BOUND,
 * 410 NONCE_EXPIRED (expired, already used, or never issued), 503 DEPENDENCY_UNAVAILABLE with
 * `Retry-After` while the nonce store (Redis) is away.
 */
import type { BindingNonce, VerifyRequest, VerifyResponse } from '@ctss/domain-types';
import { HttpProblem, type KvStore } from '@ctss/server-kit';
import { WalletSignatureError, parseAptosFullMessage, verifyWalletSignature } from '@ctss/signing';
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { parseWalletAddress, type WalletAddress } from './address.js';
import { NonceStore, nonceOfMessage } from './nonces.js';
import { bindWallet, findUserByUsername, unbindWallet, type UserIdentity } from './repository.js';

/** Dependencies of the binding flow. */
export interface BindingDeps {
  /** Primary database (bindings are writes; the username lookup must see the latest rows too). */
  primary: Knex;
  kv: KvStore;
  /** The app clock (epoch milliseconds). */
  clock: Clock;
  /** Lifetime of a nonce, seconds (NONCE_TTL_SECONDS). */
  nonceTtlSeconds: number;
  /** The suffix every username ends with (USERNAME_SUFFIX, e.g. `.ctss`). */
  usernameSuffix: string;
}

function walletOrThrow(
  chainType: VerifyRequest['chain_type'],
  address: string,
  code: 'INVALID_QUERY' | 'INVALID_BODY',
): WalletAddress {
  const wallet = parseWalletAddress(chainType, address);
  if (!wallet) throw new HttpProblem(400, code, `address: not a valid ${chainType} address`);
  return wallet;
}

async function userOrThrow(db: Knex, username: string): Promise<UserIdentity> {
  const user = await findUserByUsername(db, username);
  if (!user) throw new HttpProblem(404, 'NOT_FOUND', `no user named ${username}`);
  return user;
}

/** The binding flow: nonces to sign, then a signed message that binds or unbinds a wallet. */
export interface BindingService {
  /**
   * Issues a one-time nonce and the exact message to sign. The message carries the username as
   * stored (canonical case).
   *
   * @throws HttpProblem 400 INVALID_QUERY (username without the suffix, bad address), 404
   *   NOT_FOUND (unknown username),
   *   503 DEPENDENCY_UNAVAILABLE (DependencyUnavailableError: the nonce store does not answer).
   */
  issueNonce(query: {
    username: string;
    address: string;
    chain_type: VerifyRequest['chain_type'];
  }): Promise<BindingNonce>;
  /**
   * Checks the signed message and binds or unbinds the wallet (order of the checks below).
   *
   * @throws HttpProblem 400, 401 INVALID_SIGNATURE, 409 ALREADY_BOUND / NOT_BOUND, 410
   *   NONCE_EXPIRED, 503 DEPENDENCY_UNAVAILABLE.
   */
  verify(body: VerifyRequest): Promise<VerifyResponse>;
}

/** The binding flow over a nonce store and the primary database. */
export function createBindingService(deps: BindingDeps): BindingService {
  const nonces = new NonceStore(deps.kv, deps.nonceTtlSeconds);
  return { issueNonce, verify };

  /**
   * Issues a one-time nonce and the exact message to sign. The message carries the username as
   * stored (canonical case).
   *
   * @throws HttpProblem 400 INVALID_QUERY (username without the suffix, bad address), 404
   *   NOT_FOUND (unknown username),
   *   503 DEPENDENCY_UNAVAILABLE (DependencyUnavailableError: the nonce store does not answer).
   */
  async function issueNonce(query: {
    username: string;
    address: string;
    chain_type: VerifyRequest['chain_type'];
  }): Promise<BindingNonce> {
    const suffix = deps.usernameSuffix;
    if (!query.username.toLowerCase().endsWith(suffix)) {
      throw new HttpProblem(400, 'INVALID_QUERY', `username: must end with ${suffix}`);
    }
    const wallet = walletOrThrow(query.chain_type, query.address, 'INVALID_QUERY');
    const user = await userOrThrow(deps.primary, query.username);
    const issued = await nonces.issue(
      { username: user.username, chain_type: wallet.chainType, address_key: wallet.key },
      new Date(deps.clock()),
    );
    return {
      nonce: issued.nonce,
      expires_at: issued.expiresAt.toISOString(),
      message: issued.message,
    };
  }

  /**
   * Checks the signed message and binds or unbinds the wallet.
   *
   * Order: shape checks (400) -> the nonce must be live (410) and issued for this username,
   * address, chain and exact text (401) -> signature (401, or 400 for malformed encodings) ->
   * the nonce is consumed atomically (410 when a concurrent request took it) -> database write
   * (409). A failed signature does not burn the nonce; a success can never be replayed. The nonce
   * store away: 503 DEPENDENCY_UNAVAILABLE (DependencyUnavailableError) after the shape checks.
   */
  async function verify(body: VerifyRequest): Promise<VerifyResponse> {
    if (body.chain_type === 'aptos' && !body.public_key) {
      throw new HttpProblem(400, 'INVALID_BODY', 'public_key: required for aptos');
    }
    const wallet = walletOrThrow(body.chain_type, body.address, 'INVALID_BODY');
    // Aptos wallets sign a full-message envelope; the binding text is its embedded message.
    const aptosEnvelope =
      body.chain_type === 'aptos' ? parseAptosFullMessage(body.message) : undefined;
    const bindingText = aptosEnvelope ? aptosEnvelope.message : body.message;
    const nonce = nonceOfMessage(bindingText);
    if (!nonce) {
      throw new HttpProblem(
        400,
        'INVALID_BODY',
        'message: must be the text returned by GET /users/messages',
      );
    }
    const now = new Date(deps.clock());
    const grant = await nonces.peek(nonce, now);
    if (!grant)
      throw new HttpProblem(410, 'NONCE_EXPIRED', 'nonce expired, already used or never issued');
    if (
      grant.message !== bindingText ||
      grant.username.toLowerCase() !== body.username.toLowerCase() ||
      grant.chain_type !== wallet.chainType ||
      grant.address_key !== wallet.key
    ) {
      throw new HttpProblem(
        401,
        'INVALID_SIGNATURE',
        'message was not issued for this username, address and chain type',
      );
    }

    let signed: { address: string; message: string };
    try {
      signed = await verifyWalletSignature({
        chainType: body.chain_type,
        address: body.address,
        message: body.message,
        signature: body.signature,
        ...(body.public_key ? { publicKey: body.public_key } : {}),
      });
    } catch (err) {
      if (err instanceof WalletSignatureError) {
        if (err.code === 'INVALID_INPUT') throw new HttpProblem(400, 'INVALID_BODY', err.message);
        throw new HttpProblem(
          401,
          'INVALID_SIGNATURE',
          'signature does not verify for this address and message',
        );
      }
      throw err;
    }
    const signer = parseWalletAddress(body.chain_type, signed.address);
    if (!signer || signer.key !== wallet.key || signed.message !== bindingText) {
      throw new HttpProblem(
        401,
        'INVALID_SIGNATURE',
        'signature does not verify for this address and message',
      );
    }

    if (!(await nonces.consume(nonce, new Date(deps.clock())))) {
      throw new HttpProblem(410, 'NONCE_EXPIRED', 'nonce expired, already used or never issued');
    }
    const user = await userOrThrow(deps.primary, grant.username);
    if (body.type === 'bind') {
      const outcome = await bindWallet(deps.primary, user.id, wallet);
      if (outcome === 'wallet_taken') {
        throw new HttpProblem(
          409,
          'ALREADY_BOUND',
          `this ${wallet.chainType} wallet is already bound to a username`,
        );
      }
      if (outcome === 'chain_taken') {
        throw new HttpProblem(
          409,
          'ALREADY_BOUND',
          `${user.username} already has a ${wallet.chainType} wallet; unbind it first`,
        );
      }
    } else if (!(await unbindWallet(deps.primary, user.id, wallet))) {
      throw new HttpProblem(
        409,
        'NOT_BOUND',
        `this ${wallet.chainType} wallet is not bound to ${user.username}`,
      );
    }
    return { success: true, username: user.username };
  }
}
