import * as fs from 'fs';
import * as path from 'path';
import { isDeepStrictEqual } from 'util';
import { RealTools, realTools } from './real-tools';

/**
 * The real server's side of a conformance suite, live or recorded (test/conformance/README.md).
 *
 * A conformance test sends the same requests to the emulator and to the real server and compares the
 * normalised answers. Where the real server runs, its answers are asked live and held to the
 * recording in `test/conformance/snapshots/<suite>.json`: the same status and body shape (keys and
 * the types of values; values a test does not compare, such as a TTL counting down, may differ
 * by run). A test without a recording is recorded; with `CONVERGE_RECORD_CONFORMANCE=1` every test
 * is recorded again. Where the real server does not run (a fresh clone), the recorded answers stand
 * in for it, values included, so the emulator is still compared with the real server.
 * `CONVERGE_CONFORMANCE_REPLAY=1` uses the recording even where the server runs.
 */
export interface Recorded {
  /** `METHOD path`, and what set this request apart (the token used, a header). */
  readonly request: string;
  /** The body sent, when one was. */
  readonly sent?: unknown;
  /** The real server's normalised answer. */
  readonly answer: unknown;
}

type Recording = Record<string, Recorded[]>;

export const SNAPSHOT_DIR = path.join(__dirname, '..', 'conformance', 'snapshots');
const RECORD = process.env.CONVERGE_RECORD_CONFORMANCE === '1';
const FORCE_REPLAY = process.env.CONVERGE_CONFORMANCE_REPLAY === '1';

/** What JSON keeps (an undefined body is no body), so that answers compare as they are stored. */
const asStored = <T>(v: T): T => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

/** An answer's status and the shape of the rest: keys, and the type of each value. */
export function shapeOf(v: unknown, key = ''): unknown {
  if (key === 'status' && typeof v === 'number') return v;
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.map((x) => shapeOf(x));
  if (typeof v === 'object') return Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, shapeOf((v as Record<string, unknown>)[k], k)]));
  return typeof v;
}

export class ConformanceRecorder {
  /** The real server runs: its answers are asked live (and set-up steps on it must run). */
  public readonly live: boolean;
  private readonly file: string;
  private readonly recording: Recording;
  private readonly updates: Recording = {};
  private readonly registered = new Set<string>();
  private current?: { name: string; index: number; answers: Recorded[]; record: boolean };

  /** `suite` names the snapshot file; `tool` the real server the suite needs. */
  constructor(suite: string, tool: keyof RealTools) {
    this.file = path.join(SNAPSHOT_DIR, `${suite}.json`);
    this.recording = fs.existsSync(this.file) ? JSON.parse(fs.readFileSync(this.file, 'utf8')) as Recording : {};
    this.live = !FORCE_REPLAY && realTools()[tool] !== undefined;
    if (!this.live) {
      // eslint-disable-next-line no-console
      console.warn(`conformance "${suite}": ${FORCE_REPLAY ? `CONVERGE_CONFORMANCE_REPLAY=1 leaves ${tool} out` : `${tool} is not available`}; ` +
        `the emulator is compared with the real server's recorded answers in ${path.relative(process.cwd(), this.file)}`);
    }
    afterAll(() => this.save());
  }

  /**
   * A conformance test: run live against both servers, or, without the real server, against the emulator
   * and the recording (skipped, saying why, when the test has none).
   */
  public test(name: string, fn: () => Promise<void>): void {
    this.registered.add(name);
    const recorded = this.recording[name];
    if (!this.live && !recorded) {
      // eslint-disable-next-line no-console
      console.warn(`SKIPPED "${name}": no recording of the real server's answers (record it where the real server runs)`);
      test.skip(`${name} [skipped: real server absent and no recording]`, fn);
      return;
    }
    test(name, async () => {
      this.current = { name, index: 0, answers: [], record: this.live && (RECORD || !recorded) };
      await fn();
      const done = this.current;
      this.current = undefined;
      if (done.record) {
        this.updates[name] = done.answers;
      } else if (done.index !== recorded.length) {
        throw new Error(`"${name}" asked the real server ${done.index} times, its recording holds ${recorded.length} answers: ` +
          `${this.fix()}`);
      }
    });
  }

  /**
   * The real server's normalised answer to `request`: `ask` it live (recorded, or held to the recording),
   * or the recording's answer.
   */
  public async real<T>(request: string, sent: unknown, ask: () => Promise<T>): Promise<T> {
    const cur = this.current;
    if (!cur) throw new Error('ConformanceRecorder.real() outside a ConformanceRecorder.test()');
    const index = cur.index++;
    const expected = this.recording[cur.name]?.[index];
    if (!this.live) {
      if (!expected || expected.request !== request || !isDeepStrictEqual(expected.sent, asStored(sent))) {
        throw new Error(`"${cur.name}" request #${index + 1} is ${request}${sent === undefined ? '' : ` ${JSON.stringify(sent)}`}; ` +
          `the recording has ${expected ? `${expected.request}${expected.sent === undefined ? '' : ` ${JSON.stringify(expected.sent)}`}` : 'no more requests'}: ${this.fix()}`);
      }
      return asStored(expected.answer) as T;
    }
    const answer = await ask();
    const entry: Recorded = { request, ...(sent === undefined ? {} : { sent: asStored(sent) }), answer: asStored(answer) };
    cur.answers[index] = entry;
    const live = { request: entry.request, sent: entry.sent, answer: shapeOf(entry.answer) };
    const then = expected && { request: expected.request, sent: expected.sent, answer: shapeOf(expected.answer) };
    if (!cur.record && !isDeepStrictEqual(live, then)) {
      throw new Error(`"${cur.name}" request #${index + 1}: the real server's answer has not the recorded status and shape (${this.fix()})\n` +
        `live:     ${JSON.stringify(live)}\nrecorded: ${JSON.stringify(then)}`);
    }
    return answer;
  }

  private fix(): string {
    return `re-record with CONVERGE_RECORD_CONFORMANCE=1 where the real server runs (${path.relative(process.cwd(), this.file)})`;
  }

  /** Writes the recordings made in this run, keeping those of tests that did not run and dropping those of tests that are gone. */
  private save(): void {
    if (!Object.keys(this.updates).length) return;
    const merged: Recording = { ...this.recording, ...this.updates };
    const sorted = Object.fromEntries(Object.keys(merged).filter((k) => this.registered.has(k)).sort().map((k) => [k, merged[k]]));
    fs.mkdirSync(SNAPSHOT_DIR, { recursive: true });
    fs.writeFileSync(this.file, `${JSON.stringify(sorted, null, 2)}\n`);
  }
}
