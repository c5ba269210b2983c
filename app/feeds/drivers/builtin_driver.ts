import vine from '@vinejs/vine'
import type Feed from '#models/feed'
import type { BuiltinAdapter, BuiltinFeedsSettings, UpstreamHttp } from '#feeds/builtin/adapter'
import { type BuiltinFeedDefinition, BUILTIN_FEEDS } from '#feeds/builtin/catalog'
import { UPSTREAMS } from '#feeds/builtin/upstreams'
import type { FeedFetchRequest, FeedPayload, FeedSourceDriver } from '#feeds/source_driver'

export interface BuiltinDriverOptions {
  http: UpstreamHttp
  settings: BuiltinFeedsSettings
  /** True when the upstreams are the local simulator: data_source says so. */
  simulated: boolean
  now: () => number
  catalog?: BuiltinFeedDefinition[]
}

const noQuery = vine.create(vine.object({}))

/**
 * Serves the sixteen built-in feeds: each feed's adapter (app/feeds/builtin/
 * adapters) reads its public upstreams and computes the content.
 */
export class BuiltinSourceDriver implements FeedSourceDriver {
  readonly name = 'builtin'
  #catalog: Map<string, BuiltinFeedDefinition>
  #adapters = new Map<string, Promise<BuiltinAdapter<any>>>()

  constructor(private options: BuiltinDriverOptions) {
    this.#catalog = new Map((options.catalog ?? BUILTIN_FEEDS).map((feed) => [feed.id, feed]))
  }

  cacheTtlMs(feed: Feed) {
    return this.#definition(feed).cacheTtlSeconds * 1000
  }

  async validateQuery(feed: Feed, query: Record<string, unknown>) {
    const adapter = await this.#adapter(feed)
    return (await (adapter.query ?? noQuery).validate(query)) as Record<string, unknown>
  }

  async fetch(feed: Feed, request: FeedFetchRequest): Promise<FeedPayload> {
    const adapter = await this.#adapter(feed)
    const data = await adapter.fetch({
      http: this.options.http,
      query: request.query,
      now: this.options.now,
      settings: this.options.settings,
    })
    const origin = adapter.upstreams.map((name) => UPSTREAMS[name].label).join(' + ')
    return {
      data,
      last_updated: this.options.now(),
      data_source: this.options.simulated ? `${origin} (local upstream simulator)` : origin,
    }
  }

  #definition(feed: Feed) {
    const definition = this.#catalog.get(feed.slug)
    if (!definition) throw new Error(`"${feed.slug}" is not a built-in feed`)
    return definition
  }

  #adapter(feed: Feed) {
    const definition = this.#definition(feed)
    let adapter = this.#adapters.get(definition.id)
    if (!adapter) {
      adapter = definition.adapter().then((module) => module.default)
      this.#adapters.set(definition.id, adapter)
    }
    return adapter
  }
}
