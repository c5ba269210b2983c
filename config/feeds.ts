import env from '#start/env'
import app from '@adonisjs/core/services/app'
import {
  UPSTREAMS,
  UPSTREAM_NAMES,
  type UpstreamName,
  upstreamUrlVariable,
} from '#feeds/builtin/upstreams'
import { defineConfig, sources } from '#feeds/define_config'

/**
 * Outside production the built-in feeds read the local upstream simulator
 * (started by `npm run dev`) instead of the real public APIs, which are not
 * reachable from development machines and CI.
 */
const simulatorUrl =
  env.get('UPSTREAM_SIMULATOR_URL') ?? (app.inProduction ? undefined : 'http://127.0.0.1:3998')

/** UPSTREAM_<NAME>_URL overrides one upstream, wherever the others point. */
function baseUrlOf(name: UpstreamName): string {
  const override = env.get(upstreamUrlVariable(name) as 'UPSTREAM_SIMULATOR_URL')
  if (override) return override
  return simulatorUrl ? `${simulatorUrl}/${name}` : UPSTREAMS[name].baseUrl
}

const baseUrls = Object.fromEntries(
  UPSTREAM_NAMES.map((name) => [name, baseUrlOf(name)])
) as Record<UpstreamName, string>

export default defineConfig({
  upstreamSimulatorUrl: simulatorUrl,
  sources: {
    builtin: sources.builtin({
      baseUrls,
      simulated: Boolean(simulatorUrl),
      timeoutMs: 5_000,
      maxBytes: 5_000_000,
      settings: {
        /** The wallets the smart-money feeds follow (public, well-known addresses). */
        smartMoneyWallets: [
          { address: '0x28c6c06298d514db089934071355e5743bf21d60', label: 'Binance 14' },
          { address: '0xf977814e90da44bfa03b6295a0616a897441acec', label: 'Binance 8' },
        ],
        ethplorerApiKey: env.get('ETHPLORER_API_KEY') ?? 'freekey',
        githubToken: env.get('GITHUB_TOKEN'),
      },
    }),
    partner_bridge: sources.partnerBridge({ timeoutMs: 5_000, maxBytes: 1_048_576 }),
    /** Hosted Mirror: a raw file on a code host, or a public object-store URL (same driver). */
    codehost_raw: sources.urlMirror({
      timeoutMs: 5_000,
      maxBytes: 1_048_576,
      label: 'A JSON file in a code repository',
      description: 'The raw URL of a file on GitHub, GitLab or similar. We fetch it on a schedule.',
    }),
    objectstore_url: sources.urlMirror({
      timeoutMs: 5_000,
      maxBytes: 1_048_576,
      label: 'A JSON object in storage',
      description:
        'The URL of an object in S3, R2, GCS or similar (a signed URL works). We fetch it on a schedule.',
    }),
    /** Hosted Mirror from documents the provider sends: signed pushes, or the owner's uploads. */
    webhook_push: sources.received({ via: 'push', maxBytes: 1_048_576 }),
    manual_upload: sources.received({ via: 'upload', maxBytes: 1_048_576 }),
  },
  cache: { maxEntries: 1_000 },
  /** Hosted Mirror: versions kept per feed. */
  snapshots: { keep: 10 },
  /** webhook_push: how far (seconds) a push's X-Tollbooth-Timestamp may be from our clock. */
  push: { toleranceSeconds: 300 },
  /**
   * `mirrors:poll` (every minute): claims 50 due feeds at a time, polls 10 at once, stops
   * claiming 20 s into a run (the next run goes on). What it claimed last still drains:
   * its last batch and the polls under way when it was claimed, shared by the workers, at
   * most (batchSize / concurrency + 2) × the 5 s source timeout (35 s), so a run ends by
   * 55 s, before the next one. Keep runSeconds + that drain under 60 (and the drain under
   * leaseSeconds).
   */
  polling: { batchSize: 50, concurrency: 10, leaseSeconds: 60, runSeconds: 20, earlySeconds: 5 },
  directory: { ttlMs: 1_000, maxEntries: 10_000 },
})
