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
