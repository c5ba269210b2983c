import app from '@adonisjs/core/services/app'
import { FeedsConfig } from '#feeds/define_config'
import sources from '#feeds/services/main'
import { OutboundConfig } from '#outbound/define_config'
import { OutboundClient, type OutboundClientOptions } from '#outbound/outbound_client'
import { Clock } from '#core/clock'

const outboundConfig = await app.container.make(OutboundConfig)
const feedsConfig = await app.container.make(FeedsConfig)

/** An OutboundClient with config/outbound.ts's values but those given. */
export function outboundClient(
  options: Partial<OutboundClientOptions> & Pick<OutboundClientOptions, 'clock'>
) {
  return new OutboundClient({ ...outboundConfig, ...options })
}

/** The configured drivers that fetch through the OutboundClient. */
const OUTBOUND_SOURCES = ['partner_bridge', 'codehost_raw', 'objectstore_url']

/**
 * Swaps the app's OutboundClient until restored, and fakes the feed source
 * drivers that hold one with their configured factories (they take it when
 * first created, so a driver created earlier would keep fetching through the
 * previous client); restoring drops those drivers too.
 */
export function swapOutboundClient(client: OutboundClient) {
  const factories = feedsConfig.sources
  app.container.swap(OutboundClient, () => client)
  for (const name of OUTBOUND_SOURCES) sources.fake(name, factories[name])
  return async () => {
    app.container.restore(OutboundClient)
    for (const name of OUTBOUND_SOURCES) await sources.restore(name)
  }
}

/** Until restored, outbound requests reach 127.0.0.1 only: a fuzzed URL is never fetched beyond it. */
export function useLoopbackOnlyOutbound() {
  return swapOutboundClient(
    outboundClient({
      allowPrivateTargets: true,
      httpsOnly: false,
      isAllowedAddress: (address) => address === '127.0.0.1',
      resolve: async () => [],
      timeoutMs: 5_000,
      clock: new Clock(),
    })
  )
}
