import { apiMessagesOf } from '../../../lib/core/http/api-error';
import { redactText, sensitiveValuesOf } from '../../../lib/core/http/redact';

describe('redaction of error bodies', () => {
  const ctx = { literals: ['tok-9f8e7d6c', 'hunter2-secret'], dataIsSecret: true };

  test('the API\'s own messages stay, with echoed secrets cut out', () => {
    expect(apiMessagesOf({ errors: ['invalid value "hunter2-secret" for password'] }, ctx))
      .toEqual(['invalid value "(redacted)" for password']);
    expect(apiMessagesOf({ errors: [{ status: '422', title: 'unprocessable content', detail: 'Token tok-9f8e7d6c is bad' }] }, ctx))
      .toEqual(['unprocessable content: Token (redacted) is bad']);
    expect(apiMessagesOf({ errors: ['permission denied'] }, ctx)).toEqual(['permission denied']);
  });

  test('a JSON body that is no error document: sensitive fields and secret data hidden, shape kept', () => {
    const body = { data: { password: 'pw-1', user: 'usr-2' }, auth: { client_token: 'ctk-3' }, secret_id: 'sid-4', private_key: 'pk-5', request_id: 'r1' };
    const [m] = apiMessagesOf(body, ctx);
    for (const s of ['pw-1', 'usr-2', 'ctk-3', 'sid-4', 'pk-5']) expect(m).not.toContain(s);
    expect(m).toContain('"request_id":"r1"');
    expect(m).toContain('"password":"(redacted)"');
    expect(apiMessagesOf({ headers: { host: 'h.example', 'x-custom': 'v1' } })[0]).toBe('{"headers":{"host":"(redacted)","x-custom":"(redacted)"}}');
  });

  test('plain text: name=value, Bearer and echoed header blocks', () => {
    expect(redactText('failed: token=abc123 password: "pw pw" user=bob', { literals: [], dataIsSecret: false }))
      .toBe('failed: token=(redacted) password: "(redacted)" user=bob');
    expect(redactText('Authorization: Bearer abc.def', { literals: [], dataIsSecret: false })).toBe('Authorization: (redacted)');
    expect(redactText('Host: x\nX-Custom: v\nbody', { literals: [], dataIsSecret: false })).toBe('Host: (redacted)\nX-Custom: (redacted)\nbody');
    expect(redactText('Request decoding failed: 1 error', { literals: [], dataIsSecret: false })).toBe('Request decoding failed: 1 error');
    // Prose keeps its words; a JSON-like pair does not.
    expect(redactText('error creating the user token: platform API POST /x: 401', { literals: [], dataIsSecret: false }))
      .toBe('error creating the user token: platform API POST /x: 401');
    expect(redactText('bad {"client_token": "s.abc", \'secret_id\':\'sid\'}', { literals: [], dataIsSecret: false }))
      .toBe('bad {"client_token": "(redacted)", \'secret_id\':\'(redacted)\'}');
    expect(redactText('key at otpauth://totp/acme:bob?secret=ABC&issuer=acme failed', { literals: [], dataIsSecret: false }))
      .toBe('key at (redacted) failed');
  });

  test('values a request sends under sensitive names, and under a secrets request\'s data', () => {
    expect(sensitiveValuesOf({ name: 'web', token: 'abcd1234', nested: { privateKey: 'k-long' } }, false).sort()).toEqual(['abcd1234', 'k-long']);
    expect(sensitiveValuesOf(JSON.stringify({ data: { otp: 'otp-value', n: 12345 }, options: { cas: 0 } }), true).sort()).toEqual(['12345', 'otp-value']);
  });
});
