import { randomInt } from 'crypto';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;

export function randomString(length: number, charset = ALNUM): string {
  let s = '';
  for (let i = 0; i < length; i++) s += charset[randomInt(charset.length)];
  return s;
}

/**
 * The service's default password policy: 20 characters of letters, digits and `-`, with at
 * least one upper-case letter, one lower-case letter, one digit and one dash. Named policies are
 * not simulated: a role or connection naming one gets passwords of this default policy.
 */
export function defaultPolicyPassword(): string {
  const required = [UPPER, LOWER, DIGITS, '-'].map((set) => set[randomInt(set.length)]);
  const chars = [...required, ...randomString(16, ALNUM + '-')];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}
