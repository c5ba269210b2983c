/** What the server told every page about itself (resources/views/components/layout.edge). */
export interface Site {
  publicUrl: string
  network: 'mainnet' | 'testnet' | 'devnet'
  /** ST on testnet and devnet, SP on mainnet. */
  addressPrefix: string
  explorer: { url: string; chain: 'mainnet' | 'testnet' }
  polls: { activityMs: number; withdrawalMs: number; dashboardMs: number }
  outputDeclaration: { maxBytes: number }
}

let cached: Site | undefined

export function site(): Site {
  cached ??= JSON.parse(document.getElementById('site-context')?.textContent ?? '{}') as Site
  return cached
}

/** `{explorer}/txid/0x…?chain=…`, as the API's explorer_url (app/chain/explorer.ts). */
export function explorerTx(txHash: string) {
  const { url, chain } = site().explorer
  return `${url}/txid/${txHash}?chain=${chain}`
}
