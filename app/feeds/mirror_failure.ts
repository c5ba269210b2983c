import { SourceUnavailable } from '#feeds/source_driver'
import type { OutboundOutcome } from '#outbound/outbound_failure'

export type MirrorFailureKind =
  OutboundOutcome | 'http_status' | 'bad_json' | 'not_a_document' | 'no_snapshot'

/**
 * A mirrored source did not give a JSON document in time, or the mirror has
 * no copy yet: the buyer is not charged. The message names the host and the
 * reason, never the URL's path or query string (a signed object-store URL
 * carries its token there).
 */
export class MirrorFailure extends SourceUnavailable {
  override name = 'MirrorFailure'

  constructor(
    readonly kind: MirrorFailureKind,
    message: string,
    /** The status the source answered, when it answered (null for a time-out, a refused target…). */
    readonly httpStatus: number | null = null
  ) {
    super(message)
  }
}
