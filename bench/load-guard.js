'use strict';
// The benchmark runs on machines that may be busy (issue 37). Every row carries the 1-minute load
// average at its start and at its end; a row measured while either was above the number of cores is
// noise, and is refused: bench/results.json lists it under `refused` (what was measured, its loads and
// why) without its figures, the run prints it, and ends with status 3. For local experiments,
// BENCH_ALLOW_LOAD=1 (or --allow-load) writes such rows anyway, marked `noisy`.
const fs = require('fs');
const os = require('os');

/** The run's exit status when a row was refused. */
const REFUSED_EXIT = 3;

/** The fields that say what a row measured: a refused row keeps these, never its figures. */
const IDENTITY = ['kv', 'orgs', 'objects', 'latency', 'backend', 'step'];

const round = (x) => Math.round(x * 100) / 100;
const defaultCores = () => (os.availableParallelism ? os.availableParallelism() : os.cpus().length);

/** Whether the environment or the command line allows rows measured under load (marked noisy). */
function allowLoadWanted(env = process.env, argv = process.argv) {
  return /^(1|true|yes)$/i.test(env.BENCH_ALLOW_LOAD ?? '') || argv.includes('--allow-load');
}

/** Why a row's load makes it noise, or undefined when it does not. */
function overReason({ start, end, cores }) {
  const over = [['start', start], ['end', end]].filter(([, l]) => l > cores);
  if (over.length === 0) return undefined;
  return `load average ${over.map(([at, l]) => `${l} at its ${at}`).join(' and ')}, above the ${cores} cores`;
}

/**
 * Records the benchmark's rows. `begin()` before a row's first measurement reads the load; `record(row, mark)`
 * after its last reads it again and keeps the row (with `load: { start, end, cores }`), or refuses it.
 * `loadSource` gives the 1-minute load average (os.loadavg()[0]; tests give their own).
 */
function createRecorder({ loadSource = () => os.loadavg()[0], cores = defaultCores(), allowLoad = false } = {}) {
  const rows = [];
  const refused = [];
  return {
    rows,
    refused,
    cores,
    allowLoad,
    begin() {
      return { start: loadSource() };
    },
    /** The row as written (with its load), or undefined when it was refused. */
    record(row, mark) {
      if (!mark || typeof mark.start !== 'number') throw new Error(`bench: the row "${row.step}" was recorded without begin()`);
      const load = { start: round(mark.start), end: round(loadSource()), cores };
      const reason = overReason(load);
      if (reason && !allowLoad) {
        refused.push({ ...Object.fromEntries(IDENTITY.filter((k) => row[k] !== undefined).map((k) => [k, row[k]])), load, reason });
        return undefined;
      }
      const written = { ...row, load, ...(reason ? { noisy: reason } : {}) };
      rows.push(written);
      return written;
    },
  };
}

/** One line per refused row, for the run's output. */
function describeRefused(refused) {
  return refused.map((r) => `refused: ${[r.kv !== undefined ? `${r.kv} KV` : undefined, r.kv === undefined && r.objects !== undefined ? `${r.objects} objects` : undefined, r.latency !== undefined ? `L=${r.latency}` : undefined,
    r.backend, r.step].filter(Boolean).join(', ')}: ${r.reason}`);
}

/**
 * Writes `results` (the run's header) with the recorder's rows and refused rows to `file`, unless no row was
 * kept (the previous results stay). Returns the run's exit status and the lines to print.
 */
function writeResults(file, results, recorder) {
  const lines = describeRefused(recorder.refused);
  const noisy = recorder.rows.filter((r) => r.noisy).length;
  if (recorder.rows.length === 0) {
    lines.push(`no row was kept: ${file} is left as it was`);
  } else {
    fs.writeFileSync(file, `${JSON.stringify({ ...results, rows: recorder.rows, refused: recorder.refused }, null, 2)}\n`);
    lines.push(`${recorder.rows.length} rows written to ${file}${noisy ? ` (${noisy} marked noisy: BENCH_ALLOW_LOAD)` : ''}`
      + `${recorder.refused.length ? `, ${recorder.refused.length} refused` : ''}`);
  }
  if (recorder.refused.length) {
    lines.push(`${recorder.refused.length} rows were measured with a load average above the ${recorder.cores} cores and not recorded: `
      + 'run again on a quieter machine (BENCH_ALLOW_LOAD=1 keeps them, marked noisy, for local experiments)');
  }
  return { exitCode: recorder.refused.length ? REFUSED_EXIT : 0, lines };
}

module.exports = { createRecorder, writeResults, describeRefused, allowLoadWanted, REFUSED_EXIT };
