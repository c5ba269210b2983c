import type { SiteContext } from '../../../app/web/page_context'

/** What the server told every page about itself (app/web/site.ts, resources/views/components/layout.edge). */
export type Site = SiteContext

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
