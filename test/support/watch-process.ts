import { ChildProcess, spawn } from 'child_process';
import { CLI, ROOT } from './harness';

/** One event of `converge watch --json`. */
export type WatchEvent = Record<string, unknown> & { event: string; time: string; stack?: string; address?: string; message: string };

/** A running `converge watch --json` (the real CLI in its own process) and the events it printed. */
export interface WatchProcess {
  readonly proc: ChildProcess;
  readonly events: WatchEvent[];
  /** Everything it printed (stdout and stderr), for secret checks. */
  output(): string;
  /**
   * Resolves with the first event (at or after `from`) matching; rejects when watch exits without it, or, for a watch
   * that hangs, after a generous guard (never a measure of speed: a busy machine is slow, not wrong), naming what it saw.
   */
  waitFor(match: (e: WatchEvent) => boolean, from?: number): Promise<WatchEvent>;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Below jest's testTimeout (jest.config.js), so that a hung watch fails with the events it printed. */
const HANG_GUARD_MS = 240_000;

export function startWatch(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): WatchProcess {
  const proc = spawn(CLI, ['watch', '--json', ...args], { env, cwd });
  const events: WatchEvent[] = [];
  let stdout = '';
  let stderr = '';
  let partial = '';
  const listeners = new Set<() => void>();
  proc.stdout!.on('data', (d: Buffer) => {
    stdout += d;
    partial += d;
    const lines = partial.split('\n');
    partial = lines.pop()!;
    for (const l of lines) {
      if (!l.trim()) continue;
      try { events.push(JSON.parse(l) as WatchEvent); } catch { /* not an event */ }
    }
    for (const f of [...listeners]) f();
  });
  proc.stderr!.on('data', (d: Buffer) => { stderr += d; });
  const exited = new Promise<number | null>((r) => proc.on('close', (code) => { for (const f of [...listeners]) f(); r(code); }));
  return {
    proc, events,
    output: () => `${stdout}\n${stderr}`,
    waitFor(match, from = 0) {
      const timeoutMs = HANG_GUARD_MS;
      return new Promise((resolve, reject) => {
        const check = () => {
          const e = events.slice(from).find(match);
          if (e) { done(); resolve(e); } else if (proc.exitCode !== null) { done(); reject(new Error(`watch exited (${proc.exitCode}) without the event; it printed:\n${stdout}\n${stderr}`)); }
        };
        const timer = setTimeout(() => { done(); reject(new Error(`no such event within ${timeoutMs} ms; events:\n${events.map((e) => JSON.stringify(e)).join('\n')}\nstderr:\n${stderr}`)); }, timeoutMs);
        const done = () => { clearTimeout(timer); listeners.delete(check); };
        listeners.add(check);
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null) proc.kill(signal);
      return exited;
    },
  };
}
