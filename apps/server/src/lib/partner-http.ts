/**
 * What the clients of partners we cannot reach (Fortnox, e-signing) share: the ways an HTTP call to a
 * partner fails as far as HTTP itself tells it, so that each client's typed error names them alike.
 */

export type PartnerFailure =
  /** 401: the credentials or the token were refused. */
  | 'unauthorized'
  /** 403: a missing privilege, scope or licence. */
  | 'forbidden'
  | 'not_found'
  /** Another 4xx: the partner refused what we sent. */
  | 'bad_request'
  /** Still 429 after every retry. */
  | 'rate_limited'
  /** 5xx (after the retries where a retry is safe). */
  | 'server_error'
  /** No answer within the time-out. */
  | 'timeout'
  /** No answer at all (refused connection, reset). */
  | 'network'
  /** An answer that is not what the partner sends (JSON, a PDF). */
  | 'malformed';

/** The failure an HTTP status other than 2xx stands for. */
export function failureOfStatus(status: number): PartnerFailure {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return 'bad_request';
}

/** The failure a thrown `fetch` (or a body read) stands for: its time-out signal, else the network. */
export function failureOfThrown(err: unknown): 'timeout' | 'network' {
  const name = (err as { name?: string }).name;
  return name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network';
}

/**
 * The wait before trying again after `res` (a 429, or a 5xx where a retry is safe): the partner's
 * `Retry-After` in seconds when it names one, else `backoffMs` doubled for each try already made.
 */
export function retryWaitMs(res: Response, backoffMs: number, attempt: number): number {
  const after = Number(res.headers.get('retry-after'));
  return Number.isFinite(after) && after > 0 ? after * 1000 : backoffMs * 2 ** attempt;
}
