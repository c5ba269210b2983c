import { normaliseTxid } from '#chain/broadcast_outcome'
import type { ChainConfig } from '#chain/define_config'

/**
 * A transaction's page: `{explorer_url}/txid/0x<txid>?chain=<mainnet|testnet>`, and on the
 * devnet `{explorer_url}/txid/0x<txid>`, its own page (docs/devnet.md#transaction-pages).
 */
export function explorerLink(chain: Pick<ChainConfig, 'explorerUrl' | 'network'>, txid: string) {
  const base = chain.explorerUrl.replace(/\/+$/, '')
  const query = chain.network.explorerChain ? `?chain=${chain.network.explorerChain}` : ''
  return `${base}/txid/0x${normaliseTxid(txid)}${query}`
}
