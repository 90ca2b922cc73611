import { envFlag, isLoopback } from '../../../lib/core/http/transport';

test('loopback: 127.0.0.0/8, ::1 and localhost; nothing else', () => {
  for (const h of ['127.0.0.1', '127.9.8.7', '::1', '[::1]', 'localhost', 'LOCALHOST', 'api.localhost']) expect(isLoopback(h)).toBe(true);
  for (const h of ['10.0.0.1', '128.0.0.1', '0.0.0.0', '::', 'localhost.example.com', 'example.com', '::ffff:10.0.0.1']) expect(isLoopback(h)).toBe(false);
});

test('boolean variables: true/false, 1/0; anything else names the variable', () => {
  expect(envFlag({ X: '1' }, 'X')).toBe(true);
  expect(envFlag({ X: 'false' }, 'X')).toBe(false);
  expect(envFlag({}, 'X')).toBeUndefined();
  expect(() => envFlag({ X: 'maybe' }, 'X')).toThrow('X must be true or false (1/0), got "maybe"');
});
