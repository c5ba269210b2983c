import { normaliseTxid } from '#chain/broadcast_outcome'
import type { ChainConfig } from '#chain/define_config'

/** A transaction's page: `{explorer_url}/txid/0x<txid>?chain=<mainnet|testnet>` (devnet is testnet). */
export function explorerLink(chain: Pick<ChainConfig, 'explorerUrl' | 'network'>, txid: string) {
  const base = chain.explorerUrl.replace(/\/+$/, '')
  return `${base}/txid/0x${normaliseTxid(txid)}?chain=${chain.network.explorerChain}`
}
