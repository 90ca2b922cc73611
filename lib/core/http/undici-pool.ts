import type { Pool as UndiciPool } from 'undici';

/*
 * undici's Pool without undici's index: the index also loads fetch, WebSocket, the cache and cookies,
 * about 50 ms of converge's start-up for a client that needs only `Pool.request`. The index adds the
 * request API to every dispatcher the same way (undici 7, index.js).
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const dispatcher = require('undici/lib/dispatcher/dispatcher') as { prototype: object };
Object.assign(dispatcher.prototype, require('undici/lib/api'));
export const Pool = require('undici/lib/dispatcher/pool') as typeof UndiciPool;
export type Pool = UndiciPool;
