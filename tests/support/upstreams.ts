import type { Group } from '@japa/runner/core'
import type { AdapterContext, BuiltinAdapter, BuiltinFeedsSettings } from '#feeds/builtin/adapter'
import { Clock } from '#core/clock'
import { FetchUpstreamHttp } from '#feeds/builtin/upstream_http'
import { UPSTREAM_NAMES, type UpstreamName } from '#feeds/builtin/upstreams'
import { UpstreamSimulator } from '@tollbooth/upstream-simulator'

export const TEST_SETTINGS: BuiltinFeedsSettings = {
  smartMoneyWallets: [
    { address: '0x28c6c06298d514db089934071355e5743bf21d60', label: 'Binance 14' },
    { address: '0xf977814e90da44bfa03b6295a0616a897441acec', label: 'Binance 8' },
    { address: '0x8103683202aa8da10536036edef04cdd865c225e', label: 'Jump Trading' },
  ],
  ethplorerApiKey: 'freekey',
}

/**
 * An upstream simulator for each test of the group (random port, fixed
 * clock) and a helper running an adapter against it for real over HTTP.
 */
export function useUpstreamSimulator(group: Group, options: { now?: () => number } = {}) {
  let simulator: UpstreamSimulator | undefined
  group.each.setup(async () => {
    simulator = await new UpstreamSimulator({
      now: options.now ?? (() => 1_795_300_000_000),
      hangMs: 10_000,
    }).listen()
    return () => simulator?.close()
  })

  const current = () => {
    if (!simulator) throw new Error('the upstream simulator is not running')
    return simulator
  }

  const http = () =>
    new FetchUpstreamHttp({
      baseUrls: Object.fromEntries(
        UPSTREAM_NAMES.map((name) => [name, `${current().url}/${name}`])
      ) as Record<UpstreamName, string>,
      // Generous: a loaded CI machine must not turn a slow local answer into an upstream failure.
      timeoutMs: 5_000,
      maxBytes: 5_000_000,
      clock: new Clock(),
    })

  return {
    simulator: current,
    http,
    async run<Query>(adapter: BuiltinAdapter<Query>, rawQuery: Record<string, string> = {}) {
      const query = (adapter.query ? await adapter.query.validate(rawQuery) : {}) as Query
      const context: AdapterContext<Query> = {
        http: http(),
        query,
        now: options.now ?? (() => 1_795_300_000_000),
        settings: TEST_SETTINGS,
      }
      return adapter.fetch(context)
    },
  }
}
