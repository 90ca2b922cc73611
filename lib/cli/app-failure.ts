/**
 * A failed synth carries the app's own output: for a construct error (a bad prop), a stack trace
 * into converge's sources (Node), or a traceback and the jsii runtime's banner (Python). Without
 * `--log-level debug`, converge prints the app's error line first and alone; the rest is noise to a
 * user who needs only the construct path, field and reason.
 */
const ERROR_LINE = /^(?:[A-Za-z_][\w.]*\.)?(\w*(?:Error|Exception)):\s*(.+)$/;
/** A Node stack frame, a Python traceback line, the jsii banner, a Node version footer. */
const NOISE = /^\s+at |^\s*File "|^Traceback \(most recent call last\)|^\s*(b['"])?!!|^Node\.js v\d|^\s*\^+\s*$/;

export function condenseAppFailure(message: string): string {
  const [head, ...rest] = message.split('\n');
  const m = /^synth failed: (.+) exited with (\S+)$/.exec(head);
  if (!m || !rest.length) return message;
  const lines = rest.map((l) => l.replace(/\s+$/, '')).filter((l) => l.trim());
  // The last error line is the one raised (Python chains end with it; Node prints one).
  const errors = lines.map((l) => ERROR_LINE.exec(l.trim())).filter((x): x is RegExpExecArray => x !== null);
  const useful = errors.length ? errors[errors.length - 1] : undefined;
  const detail = useful ? `${useful[2]} (${useful[1]})` : lines.filter((l) => !NOISE.test(l)).slice(-5).join('\n');
  return `${detail}\nThe app ${m[1]} exited with ${m[2]}; --log-level debug shows its whole output.`;
}
