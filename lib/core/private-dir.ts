import * as fs from 'fs';

/**
 * Refuses an existing directory that another user could have made or can change: one owned by
 * another user, or writable by group or others. Such a directory at a shared path (`/tmp/...`)
 * may hold files another user planted (an emulator's `tokens.json`: their root token would be
 * ours). A directory that does not exist is fine (the caller creates it, mode 0700). Where the
 * platform has no user ids (Windows), nothing is checked.
 */
export function assertPrivateDir(dir: string, what: string): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  let st: fs.Stats;
  try {
    st = fs.statSync(dir); // a symbolic link is judged by what it points to
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if (!st.isDirectory()) throw new Error(`${what} ${dir} is not a directory`);
  if (st.uid !== uid) {
    throw new Error(`${what} ${dir} is owned by another user (uid ${st.uid}), who may have put files in it: ` +
      'converge uses only a directory of your own (choose another path, or one it creates)');
  }
  if (st.mode & 0o022) {
    throw new Error(`${what} ${dir} is writable by other users (mode ${(st.mode & 0o7777).toString(8)}), who may have put files in it: ` +
      `make it private (chmod 700 ${dir}) once you have checked what it holds, or choose another path`);
  }
}
