import * as fs from 'fs';
import * as path from 'path';

/**
 * What listens on a TCP port of this machine, in words (`pid 1234 (node server.js)`), for the
 * message of a port in use; undefined when it cannot be told (not Linux, or the holder belongs to
 * another user whose descriptors cannot be read). Read from /proc: the listening socket's inode in
 * /proc/net/tcp{,6}, then the process with a descriptor on that socket.
 */
export function portHolder(port: number): string | undefined {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try { text = fs.readFileSync(table, 'utf8'); } catch { continue; }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== '0A') continue; // 0A: LISTEN
      if (parseInt(f[1].split(':')[1], 16) === port) inodes.add(f[9]);
    }
  }
  if (!inodes.size) return undefined;
  let pids: string[];
  try { pids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)); } catch { return undefined; }
  for (const pid of pids) {
    let fds: string[];
    try { fds = fs.readdirSync(path.join('/proc', pid, 'fd')); } catch { continue; }
    for (const fd of fds) {
      let link: string;
      try { link = fs.readlinkSync(path.join('/proc', pid, 'fd', fd)); } catch { continue; }
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (m && inodes.has(m[1])) return `pid ${pid}${commandOf(pid)}`;
    }
  }
  return undefined;
}

/** ` (node server.js)`: the process's command line, shortened; empty when unreadable. */
function commandOf(pid: string): string {
  try {
    const cmd = fs.readFileSync(path.join('/proc', pid, 'cmdline'), 'utf8').split('\0').filter(Boolean).join(' ');
    if (!cmd) return '';
    return ` (${cmd.length > 80 ? `${cmd.slice(0, 79)}…` : cmd})`;
  } catch {
    return '';
  }
}
