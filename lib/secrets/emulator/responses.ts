import { randomUUID } from 'crypto';
import { EmuResponse } from '../../core/emulator-kit/types';

/** Error answer in the secrets service's shape: `{"errors":[...]}`. */
export function errors(status: number, ...messages: string[]): EmuResponse {
  return { status, body: { errors: messages } };
}

/** Plain not-found: 404 `{"errors":[]}`. */
export function notFound(): EmuResponse {
  return errors(404);
}

/** 204 with no body: a write with nothing to return. */
export function noContent(): EmuResponse {
  return { status: 204 };
}

/** The standard response envelope wrapped around `data`. */
export function envelope(data: unknown, status = 200, warnings?: string[]): EmuResponse {
  return {
    status,
    body: {
      request_id: randomUUID(), lease_id: '', renewable: false, lease_duration: 0,
      data, wrap_info: null, warnings: warnings?.length ? warnings : null, auth: null,
    },
  };
}

/** The answer to a list (`LIST` or `GET ?list=true`): the names, or a plain 404 when there are none, as the service does. */
export function keyList(keys: string[]): EmuResponse {
  return keys.length ? envelope({ keys }) : notFound();
}

/** A request error an engine throws; the emulator turns it into `{"errors":[message]}`. */
export class RequestError extends Error {
  constructor(public readonly status: number, message: string) {
    super(message);
  }
}

/** A JSON object body, or a 400. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new RequestError(400, 'request body must be a JSON object');
  return body as Record<string, unknown>;
}
