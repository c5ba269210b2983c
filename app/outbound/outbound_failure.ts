/**
 * Why an outbound request failed. Stable: callers branch on it and may show
 * it to the provider whose URL it was.
 */
export type OutboundFailureKind =
  | 'invalid_url'
  | 'blocked_target'
  | 'unreachable'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'redirect_refused'

/**
 * A failed outbound request. The message names at most the host and the
 * reason, never headers, query strings or a stack, so it is safe to show to
 * the provider whose URL it was.
 */
export class OutboundFailure extends Error {
  override name = 'OutboundFailure'

  constructor(
    readonly kind: OutboundFailureKind,
    message: string,
    /** The status the target answered before the request failed (too_large), else null. */
    readonly httpStatus: number | null = null
  ) {
    super(message)
  }
}

/** What a failed call means to the feed or provider it served. */
export type OutboundOutcome = 'timeout' | 'too_large' | 'refused_target' | 'unreachable'

/** The outcome of a failure and a message naming `host`, safe to show. */
export function describeOutboundFailure(
  error: OutboundFailure,
  host: string
): { outcome: OutboundOutcome; message: string } {
  switch (error.kind) {
    case 'timeout':
      return { outcome: 'timeout', message: `${host} did not answer in time` }
    case 'too_large':
      return { outcome: 'too_large', message: error.message }
    case 'unreachable':
      return { outcome: 'unreachable', message: `${host} is unreachable` }
    default:
      return { outcome: 'refused_target', message: `${host}: ${error.message}` }
  }
}
