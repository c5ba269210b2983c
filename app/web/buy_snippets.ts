import type { SiteContext } from '#web/page_context'

/**
 * Copy-paste code that buys one feed: the 402 probe with curl, and a paid call
 * with the x402-stacks client (its own network names: devnet is testnet).
 */
export function buySnippets(site: SiteContext, endpoint: string, priceStx: string) {
  const url = `${site.publicUrl}${endpoint}`
  const network = site.network === 'mainnet' ? 'mainnet' : 'testnet'
  return {
    curl: [
      `# The price and where to pay it: HTTP 402 with the x402 v2 requirements`,
      `curl -i ${url}`,
    ].join('\n'),
    x402: [
      `// npm install x402-stacks axios`,
      `import axios from 'axios'`,
      `import { privateKeyToAccount, wrapAxiosWithPayment } from 'x402-stacks'`,
      ``,
      `const account = privateKeyToAccount(process.env.STACKS_PRIVATE_KEY, '${network}')`,
      `const api = wrapAxiosWithPayment(axios.create({ baseURL: '${site.publicUrl}' }), account)`,
      ``,
      `// Pays ${priceStx} STX per call, then returns the data`,
      `const { data } = await api.get('${endpoint}', { headers: { 'x-agent-name': 'my-agent' } })`,
      `console.log(data.data)`,
    ].join('\n'),
  }
}
