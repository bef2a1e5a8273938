/**
 * Wallet binding and joining (docs/api.md "Wallet binding"; docs/decisions.md "D11. Binding
 * message and nonce rules", "D12. Wallet signature schemes", "D152. Joining: a username is
 * claimed by its first signed bind", "D153. Binding to a username needs one of its wallets").
 * A bind to an unused username creates it with the signing wallet; a bind to a username that has
 * wallets needs a second signature of the same message by one of them (`authorizer`).
 * Failures: 400 bad input (INVALID_QUERY / INVALID_BODY / INVALID_USERNAME), 401 bad signature
 * (or a message issued for another username / address / chain), 403 AUTHORIZATION_REQUIRED /
 * NOT_AUTHORIZED, 409 ALREADY_BOUND / NOT_BOUND / USERNAME_TAKEN / LAST_WALLET, 410
 * NONCE_EXPIRED (expired, already used, or never issued), 503 DEPENDENCY_UNAVAILABLE with
 * `Retry-After` while the nonce store (Redis) is away.
 */
import type {
  BindingAuthorizer,
  BindingNonce,
  VerifyRequest,
  VerifyResponse,
} from '@ctss/domain-types';
import { HttpProblem, type KvStore } from '@ctss/server-kit';
import { WalletSignatureError, parseAptosFullMessage, verifyWalletSignature } from '@ctss/signing';
import type { Database } from '../db/database.js';
import type { Clock } from '../clock.js';
import { parseWalletAddress, type WalletAddress } from './address.js';
import { NonceStore, nonceOfMessage } from './nonces.js';
import {
  bindAuthorizedWallet,
  createUserWithWallet,
  findUserByUsername,
  unbindOwnedWallet,
} from './repository.js';
import { claimableUsername, newRefCode } from './usernames.js';

/** Dependencies of the binding flow. */
export interface BindingDeps {
  /** Primary database (bindings are writes; the username lookup must see the latest rows too). */
  primary: Database;
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

const BAD_SIGNATURE = 'signature does not verify for this address and message';

/**
 * Verifies that `signer` signed `signedText` whose binding text (the text itself, or the message
 * inside an Aptos full-message envelope) is `bindingText`.
 *
 * @throws HttpProblem 400 INVALID_BODY (malformed encodings), 401 INVALID_SIGNATURE.
 */
async function checkSignature(
  signer: {
    chain_type: VerifyRequest['chain_type'];
    address: string;
    signature: string;
    public_key?: string | undefined;
  },
  wallet: WalletAddress,
  signedText: string,
  bindingText: string,
): Promise<void> {
  let signed: { address: string; message: string };
  try {
    signed = await verifyWalletSignature({
      chainType: signer.chain_type,
      address: signer.address,
      message: signedText,
      signature: signer.signature,
      ...(signer.public_key ? { publicKey: signer.public_key } : {}),
    });
  } catch (err) {
    if (err instanceof WalletSignatureError) {
      if (err.code === 'INVALID_INPUT') throw new HttpProblem(400, 'INVALID_BODY', err.message);
      throw new HttpProblem(401, 'INVALID_SIGNATURE', BAD_SIGNATURE);
    }
    throw err;
  }
  const parsed = parseWalletAddress(signer.chain_type, signed.address);
  if (!parsed || parsed.key !== wallet.key || signed.message !== bindingText) {
    throw new HttpProblem(401, 'INVALID_SIGNATURE', BAD_SIGNATURE);
  }
}

/** The binding text of a signed message: the message, or the one inside an Aptos envelope. */
function bindingTextOf(chainType: VerifyRequest['chain_type'], message: string): string {
  const envelope = chainType === 'aptos' ? parseAptosFullMessage(message) : undefined;
  return envelope ? envelope.message : message;
}

/**
 * Checks the authorizer's signature of `bindingText` and returns its wallet.
 *
 * @throws HttpProblem 400 INVALID_BODY (bad address, missing Aptos public_key, malformed
 *   encodings), 401 INVALID_SIGNATURE.
 */
async function checkAuthorizer(
  authorizer: BindingAuthorizer,
  requestMessage: string,
  bindingText: string,
): Promise<WalletAddress> {
  if (authorizer.chain_type === 'aptos' && !authorizer.public_key) {
    throw new HttpProblem(400, 'INVALID_BODY', 'authorizer.public_key: required for aptos');
  }
  const wallet = parseWalletAddress(authorizer.chain_type, authorizer.address);
  if (!wallet) {
    throw new HttpProblem(
      400,
      'INVALID_BODY',
      `authorizer.address: not a valid ${authorizer.chain_type} address`,
    );
  }
  const signedText = authorizer.message ?? requestMessage;
  if (bindingTextOf(authorizer.chain_type, signedText) !== bindingText) {
    throw new HttpProblem(
      401,
      'INVALID_SIGNATURE',
      'authorizer.message: must be the message issued for this binding',
    );
  }
  await checkSignature(authorizer, wallet, signedText, bindingText);
  return wallet;
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
   * stored (canonical case), or, for an unused username (a claim), its canonical lower-case form.
   *
   * @throws HttpProblem 400 INVALID_QUERY (username without the suffix, bad address), 400
   *   INVALID_USERNAME (an unused username that cannot be claimed),
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
    const user = await findUserByUsername(deps.primary, query.username);
    let username: string;
    if (user) {
      username = user.username;
    } else {
      const claim = claimableUsername(query.username, suffix);
      if (!claim.ok) throw new HttpProblem(400, 'INVALID_USERNAME', claim.reason);
      username = claim.username;
    }
    const issued = await nonces.issue(
      { username, chain_type: wallet.chainType, address_key: wallet.key },
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
   * address, chain and exact text (401) -> signature, and the authorizer's when given (401, or
   * 400 for malformed encodings) -> the nonce is consumed atomically (410 when a concurrent
   * request took it) -> database write: a claim of an unused username (409 USERNAME_TAKEN when a
   * concurrent claim won), a bind checked against the username's wallets (403 without or with a
   * foreign authorizer, 409 ALREADY_BOUND), an unbind (409 NOT_BOUND, LAST_WALLET). A failed
   * signature does not burn the nonce; a success can never be replayed. The nonce store away: 503
   * DEPENDENCY_UNAVAILABLE (DependencyUnavailableError) after the shape checks.
   */
  async function verify(body: VerifyRequest): Promise<VerifyResponse> {
    if (body.chain_type === 'aptos' && !body.public_key) {
      throw new HttpProblem(400, 'INVALID_BODY', 'public_key: required for aptos');
    }
    const wallet = walletOrThrow(body.chain_type, body.address, 'INVALID_BODY');
    const bindingText = bindingTextOf(body.chain_type, body.message);
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
    await checkSignature(body, wallet, body.message, bindingText);
    const authorizer =
      body.type === 'bind' && body.authorizer
        ? await checkAuthorizer(body.authorizer, body.message, bindingText)
        : undefined;

    if (!(await nonces.consume(nonce, new Date(deps.clock())))) {
      throw new HttpProblem(410, 'NONCE_EXPIRED', 'nonce expired, already used or never issued');
    }
    const user = await findUserByUsername(deps.primary, grant.username);
    if (body.type === 'unbind') {
      if (!user) throw new HttpProblem(404, 'NOT_FOUND', `no user named ${grant.username}`);
      const outcome = await unbindOwnedWallet(deps.primary, user.id, wallet);
      if (outcome === 'not_bound') {
        throw new HttpProblem(
          409,
          'NOT_BOUND',
          `this ${wallet.chainType} wallet is not bound to ${user.username}`,
        );
      }
      if (outcome === 'last_wallet') {
        throw new HttpProblem(
          409,
          'LAST_WALLET',
          `this is the last wallet of ${user.username}; a username keeps at least one wallet`,
        );
      }
      return { success: true, username: user.username };
    }
    if (!user) {
      const claimed = await createUserWithWallet(deps.primary, grant.username, wallet, newRefCode);
      if (claimed.outcome === 'username_taken') {
        throw new HttpProblem(
          409,
          'USERNAME_TAKEN',
          `${grant.username} was claimed by another wallet; ask for a new message`,
        );
      }
      if (claimed.outcome !== 'created') {
        throw new HttpProblem(
          409,
          'ALREADY_BOUND',
          `this ${wallet.chainType} wallet is already bound to a username`,
        );
      }
      return { success: true, username: claimed.user.username };
    }
    const outcome = await bindAuthorizedWallet(deps.primary, user.id, wallet, authorizer);
    switch (outcome) {
      case 'bound':
        return { success: true, username: user.username };
      case 'authorization_required':
        throw new HttpProblem(
          403,
          'AUTHORIZATION_REQUIRED',
          `${user.username} already has wallets: one of them must sign the same message (authorizer)`,
        );
      case 'not_authorized':
        throw new HttpProblem(
          403,
          'NOT_AUTHORIZED',
          `the authorizer wallet is not bound to ${user.username}`,
        );
      case 'wallet_taken':
        throw new HttpProblem(
          409,
          'ALREADY_BOUND',
          `this ${wallet.chainType} wallet is already bound to a username`,
        );
      case 'chain_taken':
        throw new HttpProblem(
          409,
          'ALREADY_BOUND',
          `${user.username} already has a ${wallet.chainType} wallet; unbind it first`,
        );
    }
  }
}
