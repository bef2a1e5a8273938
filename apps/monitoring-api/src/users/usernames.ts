/**
 * Which usernames can come into existence (docs/decisions.md "D152. Joining: a username is
 * claimed by its first signed bind"): the label before the suffix is 3-32 characters of ASCII
 * a-z, 0-9 and single inner hyphens; input is folded to lower case, so `Alice.CTSS` and
 * `alice.ctss` are one name. Anything else (other scripts, look-alike letters such as Cyrillic
 * `а`, dots, a doubled suffix, `--` as in punycode) is refused, so two different names never look
 * alike. Existing usernames are looked up as stored and are not re-validated.
 */
import { randomBytes } from 'node:crypto';

const LABEL = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,31}$/;

/**
 * The canonical form of a new username, or the reason it cannot be claimed.
 *
 * @param username as sent, suffix included.
 * @param suffix USERNAME_SUFFIX, e.g. `.ctss`.
 */
export function claimableUsername(
  username: string,
  suffix: string,
): { ok: true; username: string } | { ok: false; reason: string } {
  const lower = username.toLowerCase();
  if (!lower.endsWith(suffix)) return { ok: false, reason: `username: must end with ${suffix}` };
  const label = lower.slice(0, lower.length - suffix.length);
  if (!LABEL.test(label)) {
    return {
      ok: false,
      reason: `username: a new name is 3-32 characters a-z, 0-9 and single inner hyphens before ${suffix} (no other letters, dots or look-alikes)`,
    };
  }
  return { ok: true, username: `${label}${suffix}` };
}

/** Alphabet of referral codes: lower-case letters and digits without look-alikes (0/o, 1/l/i). */
const REF_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A random 10-character referral code (about 49 bits); uniqueness is the database's unique index. */
export function newRefCode(): string {
  const bytes = randomBytes(10);
  let code = '';
  for (const b of bytes) code += REF_ALPHABET[b % REF_ALPHABET.length];
  return code;
}
