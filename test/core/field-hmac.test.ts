import { resolveSpec, UNKNOWN } from '../../lib/core/engine/resolve-spec';
import { fieldHmac, newSalt } from '../../lib/core/crypto/field-hmac';
import { hmac } from '../../lib/core/crypto/state-key';

process.env.CONVERGE_STATE_KEY ??= 'a'.repeat(64);

// Issue 13 §1: the same secret in two places must not show as equal in state.
describe('HMACs keyed per record and per path', () => {
  test('one secret in two fields, or in two records, has unrelated HMACs', () => {
    process.env.HMAC_SAME = 'the-same-secret-3f1a';
    const spec = { a: { $secret: { env: 'HMAC_SAME' } }, b: { $secret: { env: 'HMAC_SAME' } } };
    const one = resolveSpec(spec, 'x', () => UNKNOWN, newSalt());
    const two = resolveSpec(spec, 'y', () => UNKNOWN, newSalt());
    expect(one.hmacs.a).not.toBe(one.hmacs.b);
    expect(one.hmacs.a).not.toBe(two.hmacs.a);
    expect(new Set([one.hmacs.a, one.hmacs.b, two.hmacs.a, two.hmacs.b]).size).toBe(4);
  });

  test('the same record, path and value give the same HMAC (a no-op plan stays a no-op)', () => {
    const salt = newSalt();
    expect(fieldHmac(salt, 'data.pw', 'v')).toBe(fieldHmac(salt, 'data.pw', 'v'));
    expect(fieldHmac(salt, 'data.pw', 'v')).not.toBe(fieldHmac(salt, 'data.pw', 'w'));
  });

  test('a record written before salts existed keeps the plain HMAC, so an upgrade shows no change', () => {
    expect(fieldHmac(undefined, 'data.pw', 'v')).toBe(hmac('v'));
  });
});
