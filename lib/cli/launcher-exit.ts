/**
 * `npx converge …` and `npm run …` start converge through `sh -c`: a SIGTERM (or SIGHUP) sent to npm
 * reaches that shell, which ends without passing it on, and converge would run on, orphaned (a
 * `watch` that keeps its stack's lock and reverts drift). Started by npm, converge therefore
 * watches its parent: when it is gone, converge takes that as the SIGTERM it never received, so its
 * own handlers stop it gracefully (state written, lock released).
 */
export function endWithLauncher(env: NodeJS.ProcessEnv = process.env, intervalMs = 500): void {
  // Only under npm: a process started by a service manager, a shell or converge itself (a detached
  // emulator outlives its starter on purpose) keeps the usual behaviour.
  if (!env.npm_command || env.CONVERGE_EMULATOR_DETACHED) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, intervalMs);
  timer.unref();
}
