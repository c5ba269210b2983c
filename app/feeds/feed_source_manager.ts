import { E_UNKNOWN_SOURCE_DRIVER } from '#feeds/exceptions'
import type { FeedSourceDriver, FeedSourceDriverFactory } from '#feeds/source_driver'

/**
 * Resolves feed source drivers by name (a feed's source_type), creating each
 * once from its factory in config/feeds.ts. `extend` adds a driver at run
 * time — how a plugin (or a test) brings its own without editing core files.
 */
export class FeedSourceManager {
  #factories: Map<string, FeedSourceDriverFactory>
  #drivers = new Map<string, Promise<FeedSourceDriver>>()

  constructor(config: { sources: Record<string, FeedSourceDriverFactory> }) {
    this.#factories = new Map(Object.entries(config.sources))
  }

  names() {
    return [...this.#factories.keys()]
  }

  use(name: string): Promise<FeedSourceDriver> {
    const cached = this.#drivers.get(name)
    if (cached) return cached
    const factory = this.#factories.get(name)
    if (!factory) throw new E_UNKNOWN_SOURCE_DRIVER([name])
    const driver = Promise.resolve(factory())
    this.#drivers.set(name, driver)
    return driver
  }

  extend(name: string, factory: FeedSourceDriverFactory) {
    this.#factories.set(name, factory)
    this.#drivers.delete(name)
    return this
  }

  async close() {
    const drivers = await Promise.all(this.#drivers.values())
    this.#drivers.clear()
    await Promise.all(drivers.map((driver) => driver.close?.()))
  }
}
