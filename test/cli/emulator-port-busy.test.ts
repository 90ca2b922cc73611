import * as fs from 'fs';
import * as net from 'net';
import { cliAsync, tempDir } from '../support/harness';

// Issue 34 item 4: `converge emulator` on a port in use names the option that picks a free port and
// what already holds the port (here: this test process).
describe('converge emulator on a busy port', () => {
  let busy: net.Server;
  let port: number;
  let dir: string;
  beforeAll(async () => {
    dir = tempDir('converge-busy-');
    busy = net.createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    port = (busy.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => busy.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test.each([['--secrets-port'], ['--mesh-port']])('%s: names the option with 0 and the holder', async (flag) => {
    const others = ['--platform-port', '--secrets-port', '--mesh-port'].filter((f) => f !== flag).flatMap((f) => [f, '0']);
    const r = await cliAsync(['emulator', flag, String(port), ...others],
      { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, NO_COLOR: '1', CONVERGE_DIR: dir });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`port ${port}`);
    expect(r.stderr).toContain(`${flag} 0`);
    // Who holds it is read from /proc (Linux); elsewhere the message says it is unknown.
    if (fs.existsSync('/proc/net/tcp')) expect(r.stderr).toContain(`pid ${process.pid}`);
    else expect(r.stderr).toContain('unknown');
  });
});
