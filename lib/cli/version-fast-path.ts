import * as fs from 'fs';

/*
 * `converge --version` (or `-V`) alone prints the version before the command line parser is even loaded
 * (issue 37: a start costs what the command needs; commander alone is ~10 ms of CPU, a third of node's own start).
 * Imported first by main.ts for this side effect; any other command line goes on to the parser as before.
 */
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // package.json is two levels above both lib/cli and dist/cli.
  process.stdout.write(`${JSON.parse(fs.readFileSync(require.resolve('../../package.json'), 'utf8')).version}\n`);
  process.exit(0);
}
