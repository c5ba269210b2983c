import app from '@adonisjs/core/services/app'

/**
 * Changes some values of a domain's bound config (`await app.container.make(WebConfig)`:
 * the one instance its provider bound, which every service and plain function reads), or
 * of one of its nested objects (`paymentsConfig.broadcast`), for a test; returns the
 * function that puts them back. The one way tests change a config (docs/architecture.md,
 * "Boot order"): never `app.config.set`, never a container swap of the config class.
 */
export function changeConfig<Config extends object>(
  config: Config,
  changes: Partial<Config>
): () => void {
  const previous = Object.fromEntries(
    Object.keys(changes).map((key) => [key, config[key as keyof Config]])
  )
  Object.assign(config, changes)
  return () => Object.assign(config, previous)
}

/**
 * A setting of the framework's own config, which has no config class (config/database.ts,
 * config/app.ts's `http`), read by its key: tests read these here only.
 */
export function frameworkSetting<Value>(key: string): Value {
  return app.config.get<Value>(key)
}

/** Changes a framework setting (see frameworkSetting); returns what puts it back. */
export function changeFrameworkSetting(key: string, value: unknown): () => void {
  const previous = app.config.get(key)
  app.config.set(key, value)
  return () => app.config.set(key, previous)
}
