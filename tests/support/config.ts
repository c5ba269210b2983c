/**
 * Changes some values of a domain's bound config (`await app.container.make(WebConfig)`:
 * the one instance its provider bound, which every service and plain function reads) for
 * a test; returns the function that puts them back. A test that only needs the services
 * it resolves afterwards to see other values can `app.container.swap` the class instead.
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
