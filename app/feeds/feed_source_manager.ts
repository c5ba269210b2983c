import type { ApplicationService } from '@adonisjs/core/types'
import { FakeSourceDriver } from '#feeds/drivers/fake_source_driver'
import { E_POLL_WITHOUT_INTERVAL, E_UNKNOWN_SOURCE_DRIVER } from '#feeds/exceptions'
import type { SourceChoice } from '#feeds/source_choice'
import {
  type FeedSourceDriver,
  type FeedSourceDriverFactory,
  isPolling,
  type SourceDeclaration,
  type SourceDriverMode,
} from '#feeds/source_driver'

/**
 * Resolves feed source drivers by name (a feed's source_type), creating each
 * once from its factory in config/feeds.ts with its name and the app.
 * `extend` adds a driver at run time — how a plugin brings its own without
 * editing core files; `fake` swaps one for a test until `restore`. Each
 * factory's declaration says which feeds may name its driver (the source
 * types a Hosted Mirror provider may choose are `names('hosted_mirror')`) and
 * what the pages show of it (`choices()`).
 */
export class FeedSourceManager {
  #factories: Map<string, FeedSourceDriverFactory>
  #drivers = new Map<string, Promise<FeedSourceDriver>>()
  /**
   * The factories `fake` replaced, by name, oldest first: fakes nest, each
   * `restore(name)` puts back the one before (undefined: the name was not
   * registered).
   */
  #faked = new Map<string, Array<FeedSourceDriverFactory | undefined>>()

  constructor(
    config: { sources: Record<string, FeedSourceDriverFactory> },
    private app: ApplicationService
  ) {
    this.#factories = new Map(Object.entries(config.sources))
  }

  /** The registered drivers' names; with a mode, only those declaring it. */
  names(mode?: SourceDriverMode) {
    return [...this.#factories]
      .filter(([, factory]) => mode === undefined || factory.declaration?.mode === mode)
      .map(([name]) => name)
  }

  /** What a driver declares of itself (undefined for a driver without a declaration, or an unknown name). */
  declaration(name: string): SourceDeclaration | undefined {
    return this.#factories.get(name)?.declaration
  }

  /** The sources providers may choose, in config order, as the pages show them. */
  choices(): SourceChoice[] {
    return [...this.#factories].flatMap(([type, { declaration }]) => {
      if (!declaration || declaration.mode === 'builtin') return []
      const { mode, delivery, label = type, description = '', fields = [] } = declaration
      return [{ type, mode, delivery, label, description, fields }]
    })
  }

  /** The names of the drivers that poll their source (`mirrors:poll`); creates every driver. */
  async polledNames(): Promise<string[]> {
    const polled: string[] = []
    for (const name of this.names()) {
      if (isPolling(await this.use(name))) polled.push(name)
    }
    return polled
  }

  use(name: string): Promise<FeedSourceDriver> {
    const cached = this.#drivers.get(name)
    if (cached) return cached
    const factory = this.#factories.get(name)
    if (!factory) throw new E_UNKNOWN_SOURCE_DRIVER([name])
    const driver = Promise.resolve(factory(name, this.app)).then((created) => {
      if (created.poll && !created.pollIntervalMs) throw new E_POLL_WITHOUT_INTERVAL([name])
      return created
    })
    this.#drivers.set(name, driver)
    return driver
  }

  extend(name: string, factory: FeedSourceDriverFactory) {
    this.#factories.set(name, factory)
    this.#drivers.delete(name)
    return this
  }

  /**
   * For a test: until `restore`, the named source (every registered one
   * without a name) is served by an in-memory FakeSourceDriver, returned to
   * control it; or, given a factory, by that factory's driver (a real
   * driver with a test's options). A faked source keeps its declaration
   * unless the factory brings its own. Fakes nest: `restore(name)` puts
   * back the previous fake.
   */
  fake(name?: string): FakeSourceDriver
  fake(name: string, factory: FeedSourceDriverFactory): void
  fake(name?: string, factory?: FeedSourceDriverFactory): FakeSourceDriver | void {
    const names = name === undefined ? this.names() : [name]
    const fake = factory ? undefined : new FakeSourceDriver(name ?? 'every')
    for (const faked of names) {
      const replaced = this.#faked.get(faked) ?? []
      replaced.push(this.#factories.get(faked))
      this.#faked.set(faked, replaced)
      const declaration = replaced[0]?.declaration
      const replacement =
        factory ?? Object.assign(() => fake as FakeSourceDriver, declaration ? { declaration } : {})
      void this.#forget(faked)
      this.#factories.set(faked, replacement)
    }
    return fake
  }

  /**
   * Undoes the named source's last `fake` (putting back the fake before it,
   * or the original); without a name, undoes every fake of every source.
   * Closes the drivers it drops.
   */
  async restore(name?: string) {
    const names = name === undefined ? [...this.#faked.keys()] : [name]
    const closing: Array<Promise<void>> = []
    for (const restored of names) {
      const replaced = this.#faked.get(restored)
      if (!replaced) continue
      const original = name === undefined ? replaced[0] : replaced.pop()
      if (name === undefined || replaced.length === 0) this.#faked.delete(restored)
      closing.push(this.#forget(restored))
      if (original) this.#factories.set(restored, original)
      else this.#factories.delete(restored)
    }
    await Promise.all(closing)
  }

  /** Unregisters a driver (closing it if it was created): undoes an `extend`. */
  async remove(name: string) {
    this.#factories.delete(name)
    await this.#forget(name)
  }

  async close() {
    const drivers = await Promise.all(this.#drivers.values())
    this.#drivers.clear()
    await Promise.all(drivers.map((driver) => driver.close?.()))
  }

  /** Drops the created driver of a name, closing it. */
  async #forget(name: string) {
    const created = this.#drivers.get(name)
    this.#drivers.delete(name)
    const driver = await created
    await driver?.close?.()
  }
}
