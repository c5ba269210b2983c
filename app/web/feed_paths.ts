/**
 * A feed's paid API path and the marketplace page about it, from its name
 * (`whale-alerts`, or `acme-data/btc-price` for a provider's feed). The pages
 * live under /market so they never shadow an API path.
 */
export function feedPaths(name: string) {
  const path = name.includes('/') ? `/feeds/p/${name}` : `/feeds/${name}`
  return { endpoint: path, page: `/market${path}` }
}
