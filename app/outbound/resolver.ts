import { lookup } from 'node:dns/promises'

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Every address a hostname resolves to; injectable so tests need no DNS. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

/** The operating system's resolver (getaddrinfo), every address at once. */
export const systemResolver: Resolver = async (hostname) => {
  const addresses = await lookup(hostname, { all: true })
  return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))
}
