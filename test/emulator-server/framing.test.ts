import { jsonTooDeep } from '../../lib/core/emulator-kit/body';
import { RequestFramer } from '../../lib/core/emulator-kit/request-framer';

/** Feeds `input` to a fresh framer in pieces of `size` bytes; returns the output and the events seen. */
function run(input: string, size: number): { out: string; events: string[] } {
  const events: string[] = [];
  const framer = new RequestFramer({
    onRequestStart: () => events.push('start'), onHeadEnd: () => events.push('head'), onRequestEnd: () => events.push('end'),
  });
  const bytes = Buffer.from(input, 'latin1');
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(framer.feed(bytes.subarray(i, i + size)));
  return { out: Buffer.concat(out).toString('latin1'), events };
}

const PIPELINE = [
  'LIST /v1/secret/metadata/ HTTP/1.1\r\nHost: x\r\n\r\n',
  // A body that itself contains a request line must not be rewritten.
  'POST /v1/secret/data/a HTTP/1.1\r\nHost: x\r\nContent-Length: 38\r\n\r\nLIST /v1/not-a-request HTTP/1.1\r\n\r\nab',
  'PUT /v1/secret/data/b HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nLIST \r\n3\r\nabc\r\n0\r\nX-Trailer: t\r\n\r\n',
  '\r\nLIST /v1/secret/metadata/dir/ HTTP/1.1\r\nhost: x\r\n\r\n',
  'GET /v1/secret/data/a?list=true HTTP/1.1\r\nHost: x\r\n\r\n',
].join('');

const EXPECTED = PIPELINE
  .replace('LIST /v1/secret/metadata/ HTTP/1.1\r\n', 'GET /v1/secret/metadata/ HTTP/1.1\r\nx-emulator-method: LIST\r\n')
  .replace('LIST /v1/secret/metadata/dir/ HTTP/1.1\r\n', 'GET /v1/secret/metadata/dir/ HTTP/1.1\r\nx-emulator-method: LIST\r\n');

test.each([1, 2, 7, 64, PIPELINE.length])('pipelined requests fed %i bytes at a time: only LIST request lines change', (size) => {
  const { out, events } = run(PIPELINE, size);
  expect(out).toBe(EXPECTED);
  expect(events).toEqual(Array(5).fill(['start', 'head', 'end']).flat());
});

test('a head the framer cannot follow passes through unchanged from there on', () => {
  const input = 'POST /a HTTP/1.1\r\nContent-Length: nope\r\n\r\nLIST /b HTTP/1.1\r\n\r\n';
  expect(run(input, 5).out).toBe(input);
});

test('a request line longer than 16 KiB is handed over as is (Node answers it)', () => {
  const input = `LIST /${'a'.repeat(20_000)} HTTP/1.1\r\n\r\n`;
  expect(run(input, 1000).out).toBe(input);
});

describe('jsonTooDeep', () => {
  test.each([
    ['[[[]]]', 3, false],
    ['[[[[]]]]', 3, true],
    [' \n {"a":{"b":[1]}}', 3, false],
    ['{"a":"[[[[[[[[\\"[[["}', 1, false],
    ['not json [[[[[[', 2, false],
  ])('%j with max %i -> %s', (body, max, expected) => {
    expect(jsonTooDeep(Buffer.from(body), max)).toBe(expected);
  });
});
