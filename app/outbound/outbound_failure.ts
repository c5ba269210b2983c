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
    message: string
  ) {
    super(message)
  }
}
