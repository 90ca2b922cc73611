import { createColors } from 'picocolors';

/** Colours and line output of the CLI: NO_COLOR and --no-color honoured, nothing secret ever passed in. */
export class Output {
  public readonly c: ReturnType<typeof createColors>;

  constructor(public readonly options: { color: boolean; quiet?: boolean; json?: boolean; debug?: boolean }) {
    this.c = createColors(options.color);
  }

  /** Normal output (suppressed by --quiet and --json). */
  public info(line = ''): void {
    if (!this.options.quiet && !this.options.json) process.stdout.write(line + '\n');
  }

  /** Output that --quiet keeps (results, the plan itself). */
  public result(line = ''): void {
    if (!this.options.json) process.stdout.write(line + '\n');
  }

  public json(doc: unknown): void {
    process.stdout.write(JSON.stringify(doc, null, 2) + '\n');
  }

  public warn(line: string): void {
    process.stderr.write(this.c.yellow(line) + '\n');
  }

  public error(line: string): void {
    process.stderr.write(this.c.red(`Error: ${line}`) + '\n');
  }

  public debug(line: string): void {
    if (this.options.debug) process.stderr.write(this.c.dim(`[debug] ${line}`) + '\n');
  }
}

/** Colour is on for a terminal unless NO_COLOR is set or --no-color given. */
export function colorWanted(flag: boolean | undefined): boolean {
  if (flag === false) return false;
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  if (process.env.FORCE_COLOR) return true;
  return Boolean(process.stdout.isTTY);
}
