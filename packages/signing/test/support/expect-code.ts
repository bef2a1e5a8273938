/** The assertion every wallet-signature test makes of a refusal. */
import { WalletSignatureError } from '../../src/errors.js';

/** Expects `promise` to reject with a {@link WalletSignatureError} whose `code` is `code`. */
export async function expectCode(
  promise: Promise<unknown>,
  code: WalletSignatureError['code'],
): Promise<void> {
  await expect(promise).rejects.toBeInstanceOf(WalletSignatureError);
  await expect(promise).rejects.toMatchObject({ code });
}
