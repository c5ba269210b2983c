import { E_UNKNOWN_SOURCE_DRIVER } from '#feeds/exceptions'
import type {
  FeedSourceDriver,
  FeedSourceDriverFactory,
  SourceDriverMode,
} from '#feeds/source_driver'

/**
 * Resolves feed source drivers by name (a feed's source_type), creating each
 * once from its factory in config/feeds.ts. `extend` adds a driver at run
 * time — how a plugin (or a test) brings its own without editing core files.
 * Each factory's `mode` says which feeds may name its driver: the source
 * types a Hosted Mirror provider may choose are `names('hosted_mirror')`.
 */
export class FeedSourceManager {
  #factories: Map<string, FeedSourceDriverFactory>
  #drivers = new Map<string, Promise<FeedSourceDriver>>()

  constructor(config: { sources: Record<string, FeedSourceDriverFactory> }) {
    this.#factories = new Map(Object.entries(config.sources))
  }

  /** The registered drivers' names; with a mode, only those declaring it. */
  names(mode?: SourceDriverMode) {
    return [...this.#factories]
      .filter(([, factory]) => mode === undefined || factory.mode === mode)
      .map(([name]) => name)
  }

  /** The names of the drivers that poll their source (`mirrors:poll`); creates every driver. */
  async polledNames(): Promise<string[]> {
    const polled: string[] = []
    for (const name of this.names()) {
      const driver = await this.use(name)
      if (driver.poll) polled.push(name)
    }
    return polled
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

  /** Unregisters a driver (closing it if it was created): undoes an `extend`. */
  async remove(name: string) {
    const created = this.#drivers.get(name)
    this.#factories.delete(name)
    this.#drivers.delete(name)
    const driver = await created
    await driver?.close?.()
  }

  async close() {
    const drivers = await Promise.all(this.#drivers.values())
    this.#drivers.clear()
    await Promise.all(drivers.map((driver) => driver.close?.()))
  }
}
