import type { ServedPayload } from '#feeds/feed_reader'
import { formatStx, type Microstx } from '#ledger/money'

/** The body of a paid answer: the feed's data in its envelope (declared in feed_declaration.ts). */
export function paidBody(price: Microstx, served: ServedPayload) {
  return {
    data: served.data,
    price: Number(price),
    price_stx: formatStx(price),
    data_source: served.data_source,
    last_updated: served.last_updated,
    ...(served.stale ? { stale: true } : {}),
  }
}
